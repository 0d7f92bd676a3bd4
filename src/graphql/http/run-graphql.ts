import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, processRegularResult } from 'graphql-yoga';
import type { YogaServerInstance } from 'graphql-yoga';
import { AppError } from '../../errors/index.ts';
import type { Metrics } from '../../telemetry/metrics-types.ts';
import type { GraphQLContext } from '../context.ts';
import type { ServerContext } from '../create-graphql.ts';
import type { RequestParams } from './graphql-params.ts';
import type { JsonType } from './negotiate.ts';

type Yoga = YogaServerInstance<ServerContext, GraphQLContext>;

/** A GraphQL answer as it goes out: its status, headers and JSON text. */
export interface JsonAnswer {
  status: number;
  type: string;
  headers: Record<string, string>;
  body: string;
}

/** A subscription asked for as JSON: refused with the Error body, as any 406 (it names the types that work). */
export const STREAM_ONLY = AppError.of('NOT_ACCEPTABLE', 'graphqlSubscriptionAsJson');

export interface RunOptions {
  /** The one boundary where errors get their public shape (mask-error.ts): for a refusal thrown before the operation ran. */
  maskError: (error: unknown) => Error;
  metrics: Metrics;
}

/**
 * Runs a request's operation through Yoga's operation pipeline (onParams, parse, validate, the
 * key check, limits, cost, execution, every envelop hook), from the parameters Fastify has read,
 * and shapes the JSON answer: one without errors as the result's own stringify gives it (200),
 * one with errors by Yoga's result processing (its GraphQL over HTTP status rules). What Yoga's
 * HTTP handling adds on top (turning a Node request into a Fetch one, reading the body again,
 * a Response object and its stream) is what this leaves out.
 */
export async function runGraphQL(
  yoga: Yoga,
  req: FastifyRequest,
  reply: FastifyReply,
  params: RequestParams,
  mediaType: JsonType,
  { maskError, metrics }: RunOptions,
): Promise<JsonAnswer> {
  const request = new yoga.fetchAPI.Request(`http://localhost${req.url}`, {
    method: req.method,
    headers: req.headers as Record<string, string>,
  });
  let result: ExecutionResult | AsyncIterable<ExecutionResult>;
  try {
    result = (await yoga.getResultForParams({ params, request }, { req, reply })) as typeof result;
  } catch (error) {
    // Refused before the operation ran (an onParams hook: a trusted document unknown or required).
    const shown = maskError(error);
    const graphqlError = shown instanceof GraphQLError ? shown : new GraphQLError(shown.message);
    metrics.error('graphql', typeof graphqlError.extensions.code === 'string' ? graphqlError.extensions.code : 'INTERNAL_ERROR');
    result = { errors: [graphqlError] };
  }
  if (isAsyncIterable(result)) {
    // A subscription asked for as JSON: nothing to stream it in.
    await result[Symbol.asyncIterator]().return?.();
    throw STREAM_ONLY;
  }
  if (result.errors === undefined && result.extensions === undefined) {
    const { stringify = JSON.stringify } = result as { stringify?: (value: unknown) => string };
    return { status: 200, type: `${mediaType}; charset=utf-8`, headers: {}, body: stringify(result) };
  }
  const response = await processRegularResult(result, yoga.fetchAPI, mediaType);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-type' && name !== 'content-length') headers[name] = value;
  });
  return { status: response.status, type: response.headers.get('content-type') ?? mediaType, headers, body: await response.text() };
}
