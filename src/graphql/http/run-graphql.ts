import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getOperationAST, Kind } from 'graphql';
import type { DocumentNode, ExecutionResult, GraphQLError, GraphQLSchema } from 'graphql';
import { isAsyncIterable, processRegularResult } from 'graphql-yoga';
import type { FetchAPI } from 'graphql-yoga';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError, retryAfterSeconds } from '../../errors/index.ts';
import { whenReady } from '../../http/maybe-promise.ts';
import type { MaybePromise } from '../../http/maybe-promise.ts';
import type { LiveFeed } from '../../services/live/live-feed.ts';
import type { Metrics } from '../../telemetry/metrics-types.ts';
import { runChecks } from '../checks/operation-check.ts';
import type { CheckedOperation, OperationCheck } from '../checks/operation-check.ts';
import { codedError } from '../coded-error.ts';
import { isUnexpected } from '../mask-error.ts';
import { withoutIncrements } from '../execution/incremental-delivery.ts';
import type { Executor } from '../execution/operation-executor.ts';
import { operationOf } from '../operation-of.ts';
import type { DocumentParser } from '../parse-document.ts';
import { logUnexpected } from '../log-unexpected.ts';
import { countErrors } from '../count-errors.ts';
import { inPhaseSpan, traceOperation } from '../operation-spans.ts';
import { documentText } from '../trusted-documents.ts';
import type { TrustedDocumentsOptions } from '../trusted-documents.ts';
import { requestContext } from '../request-context.ts';
import type { RequestParams } from './graphql-params.ts';
import type { JsonType } from './negotiate.ts';

/** A GraphQL answer as it goes out: its status, headers and JSON text. */
export interface JsonAnswer {
  status: number;
  type: string;
  headers: Record<string, string>;
  body: string;
}

/** A subscription asked for as JSON: refused with the Error body, as any 406 (it names the types that work). */
export const STREAM_ONLY = AppError.of('NOT_ACCEPTABLE', 'graphqlSubscriptionAsJson');

export interface GraphQLRunnerOptions {
  schema: GraphQLSchema;
  db: Kysely<Database>;
  live: LiveFeed;
  /** Parses every document within the limits, once (parse-document.ts). */
  documents: DocumentParser;
  /** Validates a document once, its errors coded (execution/document-validator.ts). */
  validate: (document: DocumentNode) => readonly GraphQLError[];
  /** Each operation's executor, compiled once (execution/operation-executor.ts). */
  executorOf: (document: DocumentNode, operationName: string | null | undefined) => Executor;
  /** The rules every operation passes before it runs (checks/). */
  checks: readonly OperationCheck[];
  trusted: TrustedDocumentsOptions;
  /** The one boundary where errors get their public shape (mask-error.ts). */
  maskError: (error: unknown) => Error;
  metrics: Metrics;
  /** GraphQL's phases as spans (operation-spans.ts). */
  tracing: boolean;
  /** For the answers with errors, shaped by Yoga's result processing (its GraphQL over HTTP status rules). */
  fetchAPI: FetchAPI;
}

export type RunGraphQL = (req: FastifyRequest, reply: FastifyReply, params: RequestParams, mediaType: JsonType) => Promise<JsonAnswer>;

/** The operation's result with its errors masked and coded, for a face that shapes its own answer (MCP's tools). */
export type RunOperation = (req: FastifyRequest, reply: FastifyReply, params: RequestParams) => Promise<ExecutionResult>;

export interface GraphQLRunner {
  /** The answer to a GraphQL over HTTP request, as JSON of the media type asked for. */
  answer: RunGraphQL;
  /** The result alone: the same run, checks and records, for another face to answer from. */
  result: RunOperation;
}

const untraced = <T>(_name: string, wrapped: () => T): T => wrapped();

/** Why no operation of `document` is the one to run. */
function noOperation(document: DocumentNode, operationName: string | undefined): AppError {
  const count = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION).length;
  if (operationName !== undefined && count > 0) return AppError.of('VALIDATION_FAILED', 'graphqlUnknownOperation', { name: operationName });
  if (count > 1) return AppError.of('VALIDATION_FAILED', 'graphqlOperationNameNeeded', { count });
  return AppError.of('VALIDATION_FAILED', 'graphqlNoOperationInDocument');
}

/**
 * The one path of queries and mutations over GET and POST, straight from the parameters Fastify
 * has read, as Mercurius runs a compiled query from its route: everything that depends only on
 * the document (its parse and limits, its validation, the operation to run, its compiled
 * executor, its fixed cost, whether it needs a key) is worked out once per document and
 * remembered; per request there is the context, built once, the checks (the key, the cost with
 * the variables, the message quota), the run and the answer's text. Every check is the one
 * Yoga applies to what it still runs (subscriptions), so both paths refuse alike. An answer with
 * errors is shaped by Yoga's result processing, so its status follows GraphQL over HTTP.
 */
export function graphqlRunner(options: GraphQLRunnerOptions): GraphQLRunner {
  const { schema, db, live, documents, validate, executorOf, checks, trusted, maskError, metrics, tracing, fetchAPI } = options;
  const phase = tracing ? inPhaseSpan : untraced;

  function execute(args: CheckedOperation): MaybePromise<ExecutionResult> {
    const done = tracing ? traceOperation(args.contextValue, args.document, args.operationName) : null;
    const began = performance.now();
    return whenReady(executorOf(args.document, args.operationName)(args), (result) => {
      if (isAsyncIterable(result)) {
        void result[Symbol.asyncIterator]().return?.();
        throw STREAM_ONLY;
      }
      const { type, name } = operationOf(args.document, args.operationName);
      metrics.operation(type, name, Boolean(result.errors?.length), (performance.now() - began) / 1000);
      done?.(result);
      if (result.errors?.length) logUnexpected(args.contextValue, result);
      return result;
    });
  }

  /** The operation's result, or the refusal (thrown) that stops it before it runs. */
  function operate(req: FastifyRequest, reply: FastifyReply, params: RequestParams): MaybePromise<ExecutionResult> {
    const text = documentText(trusted, params);
    if (text instanceof AppError) throw text;
    const document = phase('graphql.parse', () => documents.parse(text));
    const operation = getOperationAST(document, params.operationName);
    if (!operation) throw noOperation(document, params.operationName);
    if (operation.operation === 'mutation' && req.method === 'GET') {
      const refusal = AppError.of('METHOD_NOT_ALLOWED', 'graphqlMutationOverGet');
      throw codedError(refusal.message, refusal.code, refusal.status, { requestLevel: true, headers: { Allow: 'POST' } });
    }
    const invalid = phase('graphql.validate', () => validate(document));
    if (invalid.length > 0) return { errors: invalid };
    const args: CheckedOperation = {
      schema,
      // Increments asked for (@defer, @stream) are answered whole here: this path answers JSON.
      document: withoutIncrements(document),
      operationName: params.operationName,
      variableValues: params.variables,
      contextValue: requestContext(req, reply, db, live),
    };
    const run = () => {
      // Checked like any operation (the key first), then refused: its events need a stream.
      if (operation.operation === 'subscription') throw STREAM_ONLY;
      return execute(args);
    };
    return phase('graphql.execute', () => {
      const checked = runChecks(checks, args);
      return checked instanceof Promise ? checked.then(run) : run();
    });
  }

  async function result(req: FastifyRequest, reply: FastifyReply, params: RequestParams): Promise<ExecutionResult> {
    let outcome: ExecutionResult;
    try {
      outcome = await operate(req, reply, params);
    } catch (error) {
      if (error === STREAM_ONLY) throw error;
      // Refused before anything ran; a fault there (not a refusal) is logged as a resolver's would be.
      if (isUnexpected(error)) req.log.error({ err: error }, 'GraphQL request failed');
      outcome = { errors: [error as GraphQLError] };
    }
    if (outcome.errors === undefined) return outcome;
    return { ...outcome, errors: outcome.errors.map((error) => maskError(error) as GraphQLError) };
  }

  async function answer(req: FastifyRequest, reply: FastifyReply, params: RequestParams, mediaType: JsonType): Promise<JsonAnswer> {
    const outcome = await result(req, reply, params);
    // Counted by the face that answers them (the MCP face counts its own).
    countErrors(metrics, outcome);
    if (outcome.errors === undefined)
      return { status: 200, type: `${mediaType}; charset=utf-8`, headers: {}, body: JSON.stringify(outcome) };
    const response = await processRegularResult(outcome, fetchAPI, mediaType);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'content-type' && name !== 'content-length') headers[name] = value;
    });
    // The database could not serve (busy, away): the answer is 503 with Retry-After whatever the
    // media type, as REST's is, so clients and balancers retry it alike rather than read a 200.
    const unavailable = outcome.errors.some((error) => error.extensions?.code === 'SERVICE_UNAVAILABLE');
    if (unavailable) headers['retry-after'] ??= String(retryAfterSeconds('SERVICE_UNAVAILABLE') ?? 1);
    return {
      status: unavailable ? 503 : response.status,
      type: response.headers.get('content-type') ?? mediaType,
      headers,
      body: await response.text(),
    };
  }

  return { answer, result };
}
