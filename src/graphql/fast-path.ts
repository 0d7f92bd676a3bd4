import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, processRegularResult } from 'graphql-yoga';
import type { GraphQLParams, YogaServerInstance } from 'graphql-yoga';
import type { GraphQLContext } from './context.ts';
import type { ServerContext } from './create-graphql.ts';
import { yogaWholePath } from './yoga-whole-path.ts';
import type { MaybePromise } from '../services/maybe-promise.ts';
import { regularMediaType } from './regular-media-type.ts';
import type { RegularType } from './regular-media-type.ts';

type Yoga = YogaServerInstance<ServerContext, GraphQLContext>;

const PARAM_NAMES = new Set(['query', 'variables', 'operationName', 'extensions']);

export interface FastPathRequest {
  params: GraphQLParams;
  /** The JSON type Yoga's negotiation would answer in. */
  mediaType: RegularType;
}

/**
 * A request Yoga would take apart exactly as Fastify already has: a POST whose JSON body
 * (an object: the route refuses any other) holds only a string query and object variables
 * and extensions, from no browser (no Origin), asking for plain JSON. Anything else (GET,
 * other bodies, other media types, trusted document ids) takes Yoga's whole path; null says so.
 */
export function fastPathRequest(req: FastifyRequest): FastPathRequest | null {
  if (req.method !== 'POST' || req.headers.origin !== undefined) return null;
  const body = req.body as Record<string, unknown>;
  for (const name in body) if (!PARAM_NAMES.has(name) && body[name] != null) return null;
  if (typeof body.query !== 'string') return null;
  if (!isObjectOrAbsent(body.variables) || !isObjectOrAbsent(body.extensions)) return null;
  if (body.operationName != null && typeof body.operationName !== 'string') return null;
  const mediaType = regularMediaType(req.headers.accept);
  return mediaType ? { params: body as GraphQLParams, mediaType } : null;
}

/** An answer with no errors, as Yoga's result processing would send it, without a Fetch API Response. */
export class PlainAnswer {
  constructor(
    readonly contentType: string,
    readonly body: string,
  ) {}
}

/**
 * Runs the parameters through Yoga's operation pipeline (onParams, every envelop hook, the
 * executor, onExecutionResult), skipping only the Fetch API request Yoga would rebuild from
 * what Fastify has parsed. A result with errors or extensions goes through Yoga's own result
 * processing (its status rules, its error cleaning); one without is sent as that processing
 * sends it (HTTP 200, the negotiated type, the result's own stringify), without the Response
 * object and its stream.
 */
export async function fastPathResponse(
  yoga: Yoga,
  req: FastifyRequest,
  reply: FastifyReply,
  { params, mediaType }: FastPathRequest,
): Promise<Response | PlainAnswer> {
  const { fetchAPI } = yoga;
  const request = new fetchAPI.Request(`http://localhost${req.url}`, {
    method: 'POST',
    headers: req.headers as Record<string, string>,
  });
  const serverContext: ServerContext = { req, reply };
  let result: ExecutionResult | AsyncIterable<ExecutionResult>;
  try {
    result = (await yoga.getResultForParams({ params, request }, serverContext)) as typeof result;
  } catch {
    // Only an onParams hook throws here (a refused trusted document), before anything ran:
    // Yoga's whole path gives the same refusal in its own words.
    return yogaWholePath(yoga, req, reply);
  }
  if (isAsyncIterable(result)) {
    // A subscription that asked for JSON: Yoga answers 406, as the route then does.
    await result[Symbol.asyncIterator]().return?.();
    return new fetchAPI.Response(null, { status: 406, headers: { accept: 'text/event-stream' } });
  }
  if (result.errors === undefined && result.extensions === undefined) {
    const { stringify = JSON.stringify } = result as { stringify?: (value: unknown) => string };
    return new PlainAnswer(`${mediaType}; charset=utf-8`, stringify(result));
  }
  return processRegularResult(result, fetchAPI, mediaType) as MaybePromise<Response>;
}

function isObjectOrAbsent(value: unknown): boolean {
  return value == null || (typeof value === 'object' && !Array.isArray(value));
}
