import type { AppError } from '../errors/index.ts';
import { toErrorBody } from '../errors/index.ts';
import { rpcErrors } from './mcp-message.ts';
import type { Era, RequestId } from './mcp-message.ts';

/** Who answers, as 2026-07-28 results carry it in `_meta` (and 2025's initialize in `serverInfo`). */
export interface ServerInfo {
  name: string;
  title: string;
  version: string;
}

/**
 * A result's JSON text as the JSON-RPC response to request `id`. A 2026-07-28 result is stamped
 * as that revision has it: `resultType: "complete"` and the server's identity in `_meta`. The
 * result is text already (a replayed tool call's is the kept one), so it is framed, not re-read.
 */
export function resultAnswer(id: RequestId, era: Era, result: string, serverInfo: ServerInfo): string {
  const framed = era === 'modern' ? stamped(result, serverInfo) : result;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${framed}}`;
}

function stamped(result: string, serverInfo: ServerInfo): string {
  const stamp = `"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":${JSON.stringify(serverInfo)}}`;
  return result === '{}' ? `{${stamp}}` : `${result.slice(0, -1)},${stamp}}`;
}

/** JSON-RPC's code for a refusal: the one it was raised with (mcp-message.ts), else by its catalogue code. */
function rpcCodeOf(error: AppError): number {
  const known = rpcErrors.get(error)?.code;
  if (known !== undefined) return known;
  if (error.code === 'INVALID_JSON') return -32700;
  if (error.code === 'METHOD_NOT_FOUND') return -32601;
  // A resource not there is invalid params since 2026-07-28 (2025's -32002 is what clients also accept).
  if (error.code === 'TOOL_NOT_FOUND' || error.code === 'RESOURCE_NOT_FOUND' || error.said?.name === 'mcpToolParams') return -32602;
  if (error.status >= 500) return -32603;
  // The transport's own refusals (401, 403, 406, 413, 429, 400), as the SDK's transports code them.
  return -32000;
}

/**
 * A refusal as a JSON-RPC error response: the code JSON-RPC reads, the catalogue's message, and
 * the Error body (code, message, status) in `data`, so an agent reads the words REST and
 * GraphQL clients read.
 */
export function errorAnswer(id: RequestId | null, error: AppError): string {
  const extra = rpcErrors.get(error)?.data;
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code: rpcCodeOf(error), message: error.message, data: { ...extra, ...toErrorBody(error) } },
  });
}

/**
 * The HTTP status a refusal is sent with. A protocol error about the message itself (no such
 * tool, bad tool params; a 2025 client's unknown method) is an answer like any other: 200, as the
 * SDK's servers send it, since a 2025 client reads a JSON-RPC error only from a 2xx. 2026-07-28
 * answers an unknown method with 404. Everything else takes its catalogue status (401 with its
 * challenge, 403, 429 with Retry-After, 400 for a message that cannot be read).
 */
export function statusOf(error: AppError, era: Era | null): number {
  if (error.code === 'TOOL_NOT_FOUND' || error.code === 'RESOURCE_NOT_FOUND' || error.said?.name === 'mcpToolParams') return 200;
  if (error.code === 'METHOD_NOT_FOUND') return era === 'modern' ? 404 : 200;
  return error.status;
}
