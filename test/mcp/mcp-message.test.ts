import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isPlainLegacyRequest } from '../../src/mcp/mcp-message.ts';

// A plain 2025 request is read without the SDK's classifier (mcp-message.ts), where the
// classifier's answer is known: the 2025 era, nothing refused. This holds that shortcut to the
// classifier itself over the messages that come near it, under every header it reads, so an SDK
// that routes one of them otherwise (a new rule, a schema loosened) fails here, not in production.

const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_pets', arguments: { first: 20 } } };
const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'client', version: '1.0.0' } },
};

const bodies: Record<string, unknown> = {
  'tools/call': call,
  'tools/call, a string id': { ...call, id: 'a' },
  'tools/call, a fractional id': { ...call, id: 1.5 },
  'tools/call, a null id': { ...call, id: null },
  'tools/call, no id': { jsonrpc: '2.0', method: 'tools/call', params: call.params },
  initialize,
  'tools/list, no params': { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  'tools/list, empty params': { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  'params an array': { ...call, params: [] },
  'params null': { ...call, params: null },
  'params a string': { ...call, params: 'x' },
  'an empty _meta': { ...call, params: { ...call.params, _meta: {} } },
  'a progress token': { ...call, params: { ...call.params, _meta: { progressToken: 1 } } },
  'a 2026 envelope': { ...call, params: { ...call.params, _meta: { [PROTOCOL_VERSION]: '2026-07-28' } } },
  'a 2025 envelope claim': { ...call, params: { ...call.params, _meta: { [PROTOCOL_VERSION]: '2025-11-25' } } },
  'initialize with a 2026 envelope': { ...initialize, params: { ...initialize.params, _meta: { [PROTOCOL_VERSION]: '2026-07-28' } } },
  '_meta null': { ...call, params: { ...call.params, _meta: null } },
  '_meta a string': { ...call, params: { ...call.params, _meta: 'x' } },
  'a key JSON-RPC has not': { ...call, extra: 1 },
  'jsonrpc 1.0': { ...call, jsonrpc: '1.0' },
  'no jsonrpc': { id: 1, method: 'tools/call' },
  'method a number': { ...call, method: 5 },
  'a result beside the method': { ...call, result: {} },
  'an error beside the method': { ...call, error: { code: 1, message: 'x' } },
  'a result': { jsonrpc: '2.0', id: 1, result: {} },
  'an error': { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'x' } },
  'a notification': { jsonrpc: '2.0', method: 'notifications/initialized' },
  'an empty batch': [],
  'a batch': [call],
  null: null,
  'a string': 'tools/call',
  'a number': 1,
};
const versionHeaders = [undefined, '2025-11-25', '2025-06-18', '2026-07-28', ' 2025-11-25', '2024-11-05', 'x'];
const methodHeaders = [undefined, 'tools/call', 'initialize'];

describe('a plain 2025 request, read without the classifier', () => {
  it('is only ever a message the classifier routes to 2025 as a request, refusing nothing', () => {
    let shortcuts = 0;
    for (const [name, body] of Object.entries(bodies)) {
      for (const version of versionHeaders) {
        for (const method of methodHeaders) {
          if (!isPlainLegacyRequest(body, version)) continue;
          shortcuts++;
          const route = classifyInboundRequest({
            httpMethod: 'POST',
            protocolVersionHeader: version,
            mcpMethodHeader: method,
            mcpNameHeader: method === 'tools/call' ? 'list_pets' : undefined,
            body,
          });
          expect({ name, version, method, route: route.kind === 'legacy' ? route.reason : route.kind }).toEqual({
            name,
            version,
            method,
            route: (body as { method?: unknown }).method === 'initialize' ? 'initialize' : 'no-claim',
          });
        }
      }
    }
    // What an SDK 1.x client sends, under each 2025 revision and none, takes the shortcut.
    expect(shortcuts).toBeGreaterThanOrEqual(3 * 3 * 5);
  });

  it('is what an SDK 1.x client sends, and nothing with an envelope, a newer revision or another shape', () => {
    expect(isPlainLegacyRequest(call, '2025-11-25')).toBe(true);
    expect(isPlainLegacyRequest(initialize, undefined)).toBe(true);
    expect(isPlainLegacyRequest(call, '2026-07-28')).toBe(false);
    expect(isPlainLegacyRequest(call, ' 2025-11-25')).toBe(false);
    expect(isPlainLegacyRequest(bodies['a progress token'], '2025-11-25')).toBe(false);
    expect(isPlainLegacyRequest(bodies['a 2026 envelope'], undefined)).toBe(false);
    expect(isPlainLegacyRequest(bodies['a fractional id'], '2025-11-25')).toBe(false);
    expect(isPlainLegacyRequest(bodies['a notification'], '2025-11-25')).toBe(false);
    expect(isPlainLegacyRequest(bodies['a result beside the method'], '2025-11-25')).toBe(false);
    expect(isPlainLegacyRequest([call], '2025-11-25')).toBe(false);
  });
});
