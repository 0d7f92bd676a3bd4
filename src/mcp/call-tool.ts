import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLError } from 'graphql';
import { AppError } from '../errors/index.ts';
import type { ErrorBody } from '../errors/index.ts';
import type { OperationRunner } from '../http/operation-runner.ts';
import type { Tool } from './tool-catalogue.ts';

/** A tools/call result, as MCP has it (content blocks, the structured answer, whether it failed). */
export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/** A tool call's result as the JSON it is sent as, and the catalogue codes it failed with (none: it succeeded). */
export interface ToolAnswer {
  json: string;
  failures: readonly string[];
}

const naming = (field: string) => (field === '' ? 'The arguments' : `Argument '${field}'`);

/** A failed tool result: each error as its Error body, a text block the agent's model reads. */
export function failed(errors: readonly ErrorBody[]): ToolAnswer {
  const result: ToolResult = { content: errors.map((error) => ({ type: 'text', text: JSON.stringify(error) })), isError: true };
  return { json: JSON.stringify(result), failures: errors.map((error) => error.code) };
}

/** The operation an agent's document names, when it names one. */
const named = (operationName: unknown) => (typeof operationName === 'string' ? { operationName } : {});

function bodyOf(error: GraphQLError): ErrorBody {
  const { code, status } = (error.extensions ?? {}) as { code?: ErrorBody['code']; status?: number };
  return { code: code ?? 'INTERNAL_ERROR', message: error.message, status: status ?? 500 };
}

/**
 * Runs a tool: its arguments checked against the input schema it lists (a mismatch is the tool's
 * VALIDATION_FAILED, nothing run), then its operation through the one GraphQL pipeline as this
 * request's own (the same checks, cost limit, quota, transaction for an Idempotency-Key). The
 * answer is the operation's `data` as structured content (and as text, for clients that read
 * only text), as JSON text; an operation with errors is a failed tool result, each error as its Error body,
 * the words REST and GraphQL use. The database being away is the request's 503 (thrown), as on
 * the other faces, so an agent and a balancer retry it alike.
 */
export async function callTool(
  runner: OperationRunner,
  tool: Tool,
  args: Record<string, unknown>,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<ToolAnswer> {
  let variables: Record<string, unknown>;
  try {
    variables = tool.checkArguments(args, naming);
  } catch (error) {
    if (error instanceof AppError) return failed([{ code: error.code, message: error.message, status: error.status }]);
    throw error;
  }
  if (tool.kind === 'validate') {
    const errors = runner.check(req, { query: String(variables.query), ...named(variables.operationName), variables: {} });
    const checked = { valid: errors.length === 0, errors: errors.map((error) => ({ code: bodyOf(error).code, message: error.message })) };
    const text = JSON.stringify(checked);
    return { json: `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}`, failures: [] };
  }
  const result = await runner.run(
    req,
    reply,
    tool.kind === 'execute'
      ? {
          query: String(variables.query),
          ...named(variables.operationName),
          variables: (variables.variables ?? {}) as Record<string, unknown>,
        }
      : {
          ...(tool.documentId === null ? { query: tool.text } : { documentId: tool.documentId }),
          operationName: tool.operationName,
          variables,
        },
  );
  if (result.errors?.length) {
    const bodies = result.errors.map(bodyOf);
    const away = bodies.find((body) => body.code === 'SERVICE_UNAVAILABLE');
    if (away) throw AppError.worded('SERVICE_UNAVAILABLE', away.message);
    return failed(bodies);
  }
  // The data is serialised once: the same text is the structured content and, quoted, the text block.
  const text = JSON.stringify(result.data ?? {});
  return { json: `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}`, failures: [] };
}
