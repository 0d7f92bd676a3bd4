import type { LightMyRequestResponse } from 'fastify';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestApp } from './test-app.ts';

export interface RpcAnswer {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: Record<string, unknown> & {
    content?: { type: string; text: string }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  error?: { code: number; message: string; data?: { code?: string; message?: string; status?: number } };
}

export type Era = 'legacy' | 'modern';

/** The tools a server without a manifest offers, in tools/list's order, and those of them that only read. */
export const DEFAULT_TOOLS = [
  'list_pets',
  'get_pet',
  'add_pet',
  'send_message',
  'get_message',
  'list_orders',
  'place_order',
  'advance_order',
  'cancel_order',
];
export const READ_TOOLS = new Set(['list_pets', 'get_pet', 'get_message', 'list_orders']);

export const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'petstore-tests', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/**
 * One JSON-RPC request to /mcp as a client of `era` sends it: a 2025 one with its
 * MCP-Protocol-Version header (2025-11-25), a 2026-07-28 one with the `_meta` envelope and the
 * Mcp-Method (and, for tools/call, Mcp-Name) headers. `headers` replaces the test key.
 */
export async function mcp(
  t: TestApp,
  method: string,
  params: Record<string, unknown> = {},
  { era = 'legacy', headers = t.auth, id = 1 }: { era?: Era; headers?: Record<string, string>; id?: string | number } = {},
): Promise<{ res: LightMyRequestResponse; body: RpcAnswer }> {
  const modern = era === 'modern';
  const meta = { ...(modern ? ENVELOPE : {}), ...((params._meta as object | undefined) ?? {}) };
  const sent = { ...params, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) };
  const res = await t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': modern ? '2026-07-28' : '2025-11-25',
      ...(modern ? { 'mcp-method': method } : {}),
      ...(modern && method === 'tools/call' ? { 'mcp-name': String(params.name) } : {}),
      ...headers,
    },
    payload: { jsonrpc: '2.0', id, method, params: sent },
  });
  return { res, body: (res.body ? JSON.parse(res.body) : null) as RpcAnswer };
}

/** A tool call's answer: its structured content, or the Error body of its first failure. */
export async function callTool(
  t: TestApp,
  name: string,
  args: Record<string, unknown> = {},
  options: Parameters<typeof mcp>[3] & { meta?: Record<string, unknown> } = {},
): Promise<{
  res: LightMyRequestResponse;
  body: RpcAnswer;
  data: Record<string, unknown> | null;
  failure: { code: string; message: string } | null;
}> {
  const { res, body } = await mcp(t, 'tools/call', { name, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) }, options);
  const failed = body.result?.isError ? (JSON.parse(body.result.content?.[0]?.text ?? '{}') as { code: string; message: string }) : null;
  return { res, body, data: body.result?.isError ? null : (body.result?.structuredContent ?? null), failure: failed };
}

/** The official SDK clients this server is tested with: 1.x (2025-11-25), 2.x as a 2025 client, 2.x on 2026-07-28. */
export const SDK_CLIENTS = ['SDK 1.x', 'SDK 2.x (2025-11-25)', 'SDK 2.x (2026-07-28)'] as const;
export type SdkClientName = (typeof SDK_CLIENTS)[number];

/** What the tests ask of a connected SDK client, whichever it is. */
export interface SdkClient {
  listTools(): Promise<{
    tools: { name: string; description?: string; inputSchema: object; outputSchema?: object; annotations?: object }[];
  }>;
  callTool(call: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<{ resources: { uri: string; name: string; title?: string; mimeType?: string }[] }>;
  readResource(read: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; text?: string }[] }>;
  close(): Promise<void>;
}

/** An SDK's transport for `which` client, with these headers and, for signing in with OAuth, the client's provider. */
function transportFor(which: SdkClientName, url: string, headers: Record<string, string>, authProvider?: object) {
  const options = { requestInit: { headers }, ...(authProvider ? { authProvider: authProvider as never } : {}) };
  return which === 'SDK 1.x' ? new Transport1(new URL(url), options) : new StreamableHTTPClientTransport(new URL(url), options);
}

/**
 * Connects `which` official SDK client to the MCP endpoint at `url`, with these headers (the
 * bearer credential), or with an OAuth client provider (`authProvider`, oauth-agent.ts) that
 * signs the agent in: without its tokens yet, this rejects with the SDK's UnauthorizedError once
 * the provider has been sent to the issuer's authorization URL.
 */
export async function connectSdk(
  which: SdkClientName,
  url: string,
  headers: Record<string, string>,
  authProvider?: object,
): Promise<SdkClient> {
  const transport = transportFor(which, url, headers, authProvider);
  if (which === 'SDK 1.x') {
    const client = new Client1({ name: 'petstore-tests', version: '1.0.0' });
    await client.connect(transport as Transport1);
    return client as unknown as SdkClient;
  }
  const options = which === 'SDK 2.x (2026-07-28)' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined;
  const client = new Client({ name: 'petstore-tests', version: '1.0.0' }, options as ConstructorParameters<typeof Client>[1]);
  await client.connect(transport as StreamableHTTPClientTransport);
  return client as unknown as SdkClient;
}

/**
 * The end of an OAuth sign-in, as an agent's SDK does it: the code from the issuer exchanged for
 * tokens, which `authProvider` keeps. 2.x also checks the issuer the browser came back from (RFC 9207).
 */
export async function finishSdkAuth(
  which: SdkClientName,
  url: string,
  authProvider: object,
  { code, iss }: { code: string; iss?: string },
): Promise<void> {
  const transport = transportFor(which, url, {}, authProvider);
  await (transport instanceof Transport1 ? transport.finishAuth(code) : transport.finishAuth(code, iss));
}

export interface Listening {
  status: number;
  contentType: string | null;
  /** Every JSON-RPC message the stream carried so far. */
  messages: Record<string, unknown>[];
  /** Resolves once the server ends the stream. */
  ended: Promise<void>;
  cancel(): Promise<void>;
}

/** subscriptions/listen over a real socket, as a 2026-07-28 client sends it; its events read as they come. */
export async function listen(
  t: TestApp,
  headers: Record<string, string> = t.auth,
  notifications: object = { toolsListChanged: true },
): Promise<Listening> {
  // Leaving closes the connection, as a client that stops listening does.
  const leave = new AbortController();
  const res = await fetch(`${await t.listen()}/mcp`, {
    signal: leave.signal,
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { notifications, _meta: ENVELOPE } }),
  });
  const messages: Record<string, unknown>[] = [];
  // A refusal is one JSON-RPC answer, not a stream.
  if (res.headers.get('content-type')?.startsWith('application/json')) {
    messages.push((await res.json()) as Record<string, unknown>);
    return { status: res.status, contentType: res.headers.get('content-type'), messages, ended: Promise.resolve(), cancel: async () => {} };
  }
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const ended = (async () => {
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        if (data) messages.push(JSON.parse(data.slice(6)) as Record<string, unknown>);
      }
    }
  })().catch(() => undefined);
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    messages,
    ended,
    cancel: async () => void (await reader?.cancel()),
  };
}
