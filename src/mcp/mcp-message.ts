import { classifyInboundRequest, isJSONRPCRequest } from '@modelcontextprotocol/server';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/index.ts';

/** The revisions this endpoint serves: the stateless one, and the 2025 ones SDK 1.x clients speak (answered statelessly, as JSON). */
export const MODERN_VERSIONS = ['2026-07-28'] as const;
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18'] as const;

export type Era = 'legacy' | 'modern';
export type RequestId = string | number;

/** One JSON-RPC message posted to /mcp, read and checked once. */
export type McpMessage =
  | { kind: 'request'; era: Era; id: RequestId; method: string; params: Record<string, unknown>; version: string }
  /** A notification, or a response to a request this server never sent: accepted (202), nothing runs. */
  | { kind: 'notice'; era: Era };

/** A JSON-RPC error a refusal is sent as: its code, and what it carries besides the Error body. */
export interface RpcError {
  code: number;
  data?: Record<string, unknown>;
}

/** The JSON-RPC error codes refusals carry, where the catalogue's code alone does not say (mcp-answer.ts reads them). */
export const rpcErrors = new WeakMap<AppError, RpcError>();

function refusal(error: AppError, rpc: RpcError): AppError {
  rpcErrors.set(error, rpc);
  return error;
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

const isId = (value: unknown): value is RequestId => typeof value === 'string' || typeof value === 'number';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The id a refusal answers, when the body had one. */
export function requestIdOf(body: unknown): RequestId | null {
  return isObject(body) && isId(body.id) ? body.id : null;
}

/**
 * Reads the message of a POST: which era it belongs to, by the official SDK's classifier
 * (`classifyInboundRequest`: the body's `_meta` envelope against the `MCP-Protocol-Version` and
 * `Mcp-Method` headers, as 2026-07-28 has them checked; a plain 2025 request, whose route the
 * classifier's own predicate settles, skips it), then what this server adds: a revision
 * it speaks, one message (no batch), a JSON-RPC request's shape, and for a 2026 tools/call the
 * `Mcp-Name` header naming the tool the body calls. Throws the refusal, with its JSON-RPC code.
 */
export function readMessage(request: FastifyRequest): McpMessage {
  const body = request.body;
  const named = header(request, 'mcp-protocol-version');
  return isPlainLegacyRequest(body, named) ? legacyRequest(body, named) : classified(request, body, named);
}

/**
 * Whether the SDK's classifier would route this message to the 2025 era as a plain request, with
 * nothing to reject: a JSON-RPC request by the SDK's own predicate, naming no 2026 envelope (no
 * `params._meta` at all), under a 2025 revision's header or none. SDK 1.x clients send nothing
 * else, and the classifier spends most of its time (6 of 7.5 µs a message) on its first two
 * checks, that the message is not a response, each failing by building zod's issues: a message
 * the request schema accepts fails both (the schemas are strict, and only responses have
 * `result` or `error`).
 * test/mcp/mcp-message.test.ts holds this to the classifier over the messages that come near it,
 * so an SDK that routes one of them otherwise fails there.
 */
export function isPlainLegacyRequest(body: unknown, protocolVersionHeader: string | undefined): boolean {
  if (protocolVersionHeader !== undefined && !(LEGACY_VERSIONS as readonly string[]).includes(protocolVersionHeader)) return false;
  if (!isObject(body)) return false;
  const { params } = body;
  if (params !== undefined && (!isObject(params) || params._meta !== undefined)) return false;
  return isJSONRPCRequest(body);
}

/** The message as the SDK's classifier routes it: refused, a 2026-07-28 message, or one of 2025 (then read as legacyRequest reads it). */
function classified(request: FastifyRequest, body: unknown, named: string | undefined): McpMessage {
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: named,
    mcpMethodHeader: header(request, 'mcp-method'),
    mcpNameHeader: header(request, 'mcp-name'),
    body,
  });
  if (route.kind === 'reject') {
    // The SDK's words, passed through as graphql-js's are: they name the header and the body's value.
    return reject(AppError.worded('VALIDATION_FAILED', route.message), {
      code: route.code,
      ...(isObject(route.data) ? { data: route.data } : {}),
    });
  }
  if (route.kind === 'modern') {
    const { revision } = route.classification;
    if (!(MODERN_VERSIONS as readonly string[]).includes(revision ?? '')) {
      const error = AppError.of('VALIDATION_FAILED', 'mcpProtocolVersion', {
        version: revision ?? '(none)',
        supported: MODERN_VERSIONS.join(', '),
      });
      return reject(error, { code: -32022, data: { supported: [...MODERN_VERSIONS], requested: revision } });
    }
    if (route.messageKind === 'notification') return { kind: 'notice', era: 'modern' };
    const { id, method, params = {} } = route.message;
    if (method === 'tools/call' && typeof params.name === 'string' && header(request, 'mcp-name') !== params.name) {
      return reject(AppError.of('VALIDATION_FAILED', 'mcpNameHeader', { name: params.name.slice(0, 100) }), { code: -32020 });
    }
    return {
      kind: 'request',
      era: 'modern',
      id,
      method,
      params: params as Record<string, unknown>,
      version: revision ?? MODERN_VERSIONS[0],
    };
  }
  if (route.reason === 'batch') return reject(AppError.of('VALIDATION_FAILED', 'mcpBatch'), { code: -32600 });
  if (route.reason === 'notification' || route.reason === 'response') return { kind: 'notice', era: 'legacy' };
  return legacyRequest(body, named);
}

/** A 2025 request, checked as this server reads one: its JSON-RPC shape, and a revision it speaks. */
function legacyRequest(body: unknown, named: string | undefined): McpMessage {
  if (
    !isObject(body) ||
    body.jsonrpc !== '2.0' ||
    !isId(body.id) ||
    typeof body.method !== 'string' ||
    (body.params !== undefined && !isObject(body.params))
  ) {
    return reject(AppError.of('VALIDATION_FAILED', 'mcpNotJsonRpc'), { code: -32600 });
  }
  // An initialize names the revision it asks for in its body; it is answered with one spoken here.
  if (body.method !== 'initialize' && named !== undefined && !(LEGACY_VERSIONS as readonly string[]).includes(named)) {
    const error = AppError.of('VALIDATION_FAILED', 'mcpProtocolVersion', {
      version: named.slice(0, 40),
      supported: [...MODERN_VERSIONS, ...LEGACY_VERSIONS].join(', '),
    });
    return reject(error, { code: -32000 });
  }
  return {
    kind: 'request',
    era: 'legacy',
    id: body.id,
    method: body.method,
    params: (body.params ?? {}) as Record<string, unknown>,
    version: named ?? LEGACY_VERSIONS[0],
  };
}

function reject(error: AppError, rpc: RpcError): never {
  throw refusal(error, rpc);
}
