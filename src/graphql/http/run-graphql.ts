import { performance } from 'node:perf_hooks';
import { GraphQLError, Kind } from 'graphql';
import type { DocumentNode, ExecutionResult, GraphQLSchema, OperationTypeNode } from 'graphql';
import { isAsyncIterable, mapAsyncIterator } from 'graphql-yoga';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { AnswerHeaders, Exchange } from '../../http/exchange.ts';
import { readDb, readRoutingOf } from '../../http/read-routing.ts';
import { AppError, retryAfterSeconds } from '../../errors/index.ts';
import type { LiveFeed } from '../../services/live/live-feed.ts';
import type { Metrics } from '../../telemetry/metrics-types.ts';
import { runChecks } from '../checks/operation-check.ts';
import type { CheckedOperation, OperationCheck } from '../checks/operation-check.ts';
import { codedError } from '../coded-error.ts';
import { isUnexpected } from '../mask-error.ts';
import { withoutIncrements } from '../execution/incremental-delivery.ts';
import { stockExecutor } from '../execution/operation-executor.ts';
import type { Executor } from '../execution/operation-executor.ts';
import { operationOf } from '../operation-of.ts';
import { logUnexpected } from '../log-unexpected.ts';
import { countErrors } from '../count-errors.ts';
import { phaseSpans, traceOperation } from '../operation-spans.ts';
import { requestContext } from '../request-context.ts';
import { resultInit } from './result-init.ts';
import type { OperationRequest } from './operation-request.ts';
import type { JsonType } from './negotiate.ts';

/** A GraphQL answer as it goes out: its status, headers and JSON text. */
export interface JsonAnswer {
  status: number;
  type: string;
  headers: Record<string, string>;
  body: string;
}

/** The most errors one result lists (graphql-js's validation stops at as many). */
export const MAX_ERRORS = 100;

/** A subscription asked for as JSON: refused with the Error body, as any 406 (it names the types that work). */
export const STREAM_ONLY = AppError.of('NOT_ACCEPTABLE', 'graphqlSubscriptionAsJson');

export interface GraphQLRunnerOptions {
  schema: GraphQLSchema;
  db: Kysely<Database>;
  live: LiveFeed;
  /** Validates a document once, its errors coded (execution/document-validator.ts). */
  validate: (document: DocumentNode) => readonly GraphQLError[];
  /** Each operation's executor, compiled once (execution/operation-executor.ts). */
  executorOf: (document: DocumentNode, operationName: string | null | undefined) => Executor;
  /** The rules every operation passes before it runs (checks/). */
  checks: readonly OperationCheck[];
  /** The one boundary where errors get their public shape (mask-error.ts). */
  maskError: (error: unknown) => Error;
  metrics: Metrics;
  /** GraphQL's phases as spans (operation-spans.ts). */
  tracing: boolean;
}

export type RunGraphQL = (
  exchange: Exchange,
  answer: AnswerHeaders | null,
  asked: OperationRequest,
  mediaType: JsonType,
) => Promise<JsonAnswer>;

/** The operation's result with its errors masked and coded, for a face that shapes its own answer (MCP's tools). */
export type RunOperation = (exchange: Exchange, answer: AnswerHeaders | null, asked: OperationRequest) => Promise<ExecutionResult>;

/**
 * What a stream carries, errors masked: a subscription's events or a query's increments (@defer,
 * @stream), or one result (refused once it began: a check, a subscription's field; or a query
 * with nothing left to send later).
 */
export type Events = ExecutionResult | AsyncIterable<ExecutionResult>;

/**
 * An operation for a transport that carries events (SSE, multipart, graphql-ws): refused before it
 * begins (its text, syntax, validation), each error masked and coded; or the operation to begin,
 * through the same checks, context, executor and records as every other.
 */
export type Streaming =
  { refused: readonly GraphQLError[] } | { kind: OperationTypeNode; args: CheckedOperation; begin: () => Promise<Events> };

export type StreamOperation = (exchange: Exchange, answer: AnswerHeaders | null, asked: OperationRequest) => Streaming;

export interface GraphQLRunner {
  /** The answer to a GraphQL over HTTP request, as JSON of the media type asked for. */
  answer: RunGraphQL;
  /** The result alone: the same run, checks and records, for another face to answer from. */
  result: RunOperation;
  /** An operation whose answer is a stream (a subscription, increments), for the transport that frames it. */
  stream: StreamOperation;
  /** A result as a JSON answer of `mediaType`, its status by GraphQL over HTTP's rules. */
  json: (outcome: ExecutionResult, mediaType: JsonType) => JsonAnswer;
  /** The errors that would stop the operation before its checks (its document's bounds, syntax, validation), run nothing. */
  check: (exchange: Exchange, asked: OperationRequest) => readonly GraphQLError[];
}

/** An operation of a document, checked to be the one to run and valid, about to pass its checks. */
interface Prepared {
  args: CheckedOperation;
  kind: OperationTypeNode;
}

/** Why no operation of `document` is the one to run. */
function noOperation(document: DocumentNode, operationName: string | undefined): AppError {
  const count = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION).length;
  if (operationName !== undefined && count > 0) return AppError.of('VALIDATION_FAILED', 'graphqlUnknownOperation', { name: operationName });
  if (count > 1) return AppError.of('VALIDATION_FAILED', 'graphqlOperationNameNeeded', { count });
  return AppError.of('VALIDATION_FAILED', 'graphqlNoOperationInDocument');
}

/**
 * The one path of every operation, straight from the request's one record (operation-request.ts:
 * its parameters, as Fastify, a socket's message or a tool call has read them, its document and
 * operation), as Mercurius runs a compiled query from its route: everything that
 * depends only on the document (its parse and limits, its validation, the operation to run, its
 * compiled executor, its fixed cost, whether it needs a key) is worked out once per document and
 * remembered; per request there is the context, built once, the checks (the key, the cost with
 * the variables, the message quota), the run, its records (metric, spans, unexpected errors
 * logged) and the answer: JSON, or events for the transport that frames them (stream-answer.ts,
 * mount-graphql-ws.ts). An answer with errors takes its status by GraphQL over HTTP's rules
 * (result-init.ts); its errors are built once, by the mask, and serialised as they are.
 */
export function graphqlRunner(options: GraphQLRunnerOptions): GraphQLRunner {
  const { schema, db, live, validate, executorOf, checks, maskError, metrics, tracing } = options;
  const phase = phaseSpans(tracing);
  const routing = readRoutingOf(db);

  /**
   * With read replicas: a query reads where read-routing.ts sends its account (the response
   * cache's versions read chose already for a kept one); a mutation marks its account before it
   * writes. A subscription reads the primary.
   */
  async function route({ contextValue }: CheckedOperation, kind: OperationTypeNode): Promise<void> {
    const { exchange } = contextValue;
    if (!routing || !exchange.principal || kind === 'subscription') return;
    if (kind === 'mutation') {
      exchange.access = 'write';
      await routing.marks.writing(exchange.principal.accountId);
      return;
    }
    exchange.access ??= 'read';
    if (!exchange.idempotency) contextValue.db = await readDb(exchange, db);
  }

  /** The run's records: its metric, its span's outcome, its unexpected errors logged (each event of a stream, which is counted when it ends). */
  async function execute(args: CheckedOperation, executor: Executor): Promise<Events> {
    const done = tracing ? traceOperation(args.contextValue, args.document, args.operationName) : null;
    const began = performance.now();
    const { type, name } = operationOf(args.document, args.operationName);
    const ran = executor(args);
    // Awaited only when it is a promise: awaiting a value makes one first.
    const result = ran instanceof Promise ? await ran : ran;
    if (isAsyncIterable(result)) {
      let errored = false;
      return mapAsyncIterator(
        result,
        (event: ExecutionResult) => {
          if (event.errors?.length) errored = true;
          logUnexpected(args.contextValue, event);
          return event;
        },
        undefined,
        () => metrics.operation(type, name, errored, (performance.now() - began) / 1000),
      );
    }
    metrics.operation(type, name, Boolean(result.errors?.length), (performance.now() - began) / 1000);
    done?.(result);
    if (result.errors?.length) logUnexpected(args.contextValue, result);
    return result;
  }

  /** The operation to run, or the refusal (thrown) or validation errors (returned) that stop it before its checks. */
  function prepare(
    exchange: Exchange,
    answer: AnswerHeaders | null,
    asked: OperationRequest,
    streams: boolean,
  ): Prepared | ExecutionResult {
    const { params, document, operation } = asked;
    if (document instanceof Error) throw document;
    if (!operation) throw noOperation(document, params.operationName);
    if (operation.operation === 'mutation' && exchange.method === 'GET') {
      const refusal = AppError.of('METHOD_NOT_ALLOWED', 'graphqlMutationOverGet');
      throw codedError(refusal.message, refusal.code, refusal.status, { requestLevel: true, headers: { Allow: 'POST' } });
    }
    const invalid = phase('graphql.validate', () => validate(document));
    if (invalid.length > 0) return { errors: invalid };
    const args: CheckedOperation = {
      schema,
      // Increments asked for (@defer, @stream) are answered whole where the answer is JSON.
      document: streams ? document : withoutIncrements(document),
      operationName: params.operationName,
      variableValues: params.variables,
      contextValue: requestContext(exchange, answer, db, live),
    };
    return { args, kind: operation.operation };
  }

  /** The checks (the key first), then the run; a subscription only where its events can go. */
  function run({ args, kind }: Prepared, streams: boolean): Promise<Events> {
    return phase(kind === 'subscription' ? 'graphql.subscribe' : 'graphql.execute', async () => {
      const checking = runChecks(checks, args);
      if (checking) await checking;
      if (kind === 'subscription' && !streams) throw STREAM_ONLY;
      if (routing) await route(args, kind);
      // Events (a subscription's, or increments) come from the stock executor; JIT compiles whole answers.
      const events = await execute(
        args,
        streams || kind === 'subscription' ? stockExecutor : executorOf(args.document, args.operationName),
      );
      if (streams || !isAsyncIterable(events)) return events;
      void events[Symbol.asyncIterator]().return?.();
      throw STREAM_ONLY;
    });
  }

  /**
   * Errors as clients see them: the one boundary's shape (mask-error.ts), at most MAX_ERRORS of
   * them. Past that, one more says how many were left out, and those are never built: a request
   * whose every item fails (a gateway's references to records that do not exist) costs what its
   * items cost, not an error each in the answer.
   */
  const masked = (outcome: ExecutionResult): ExecutionResult => {
    const { errors } = outcome;
    if (errors === undefined) return outcome;
    const shown = errors.slice(0, MAX_ERRORS).map((error) => maskError(error) as GraphQLError);
    if (errors.length > MAX_ERRORS) {
      const leftOut = AppError.of('TOO_MANY_ERRORS', 'graphqlLeftOut', { count: errors.length - MAX_ERRORS, max: MAX_ERRORS });
      // Not request-level: the answer's status stays what the errors it lists make it.
      shown.push(codedError(leftOut.message, leftOut.code, leftOut.status));
    }
    return { ...outcome, errors: shown };
  };

  /** A refusal thrown before anything ran, as a result; a fault there (not a refusal) is logged as a resolver's would be. */
  function refusal(exchange: Exchange, error: unknown): ExecutionResult {
    if (isUnexpected(error)) exchange.log.error({ err: error }, 'GraphQL request failed');
    return { errors: [error as GraphQLError] };
  }

  function stream(exchange: Exchange, answer: AnswerHeaders | null, asked: OperationRequest): Streaming {
    let prepared;
    try {
      prepared = prepare(exchange, answer, asked, true);
    } catch (error) {
      prepared = refusal(exchange, error);
    }
    if (!('args' in prepared)) {
      const refused = masked(prepared);
      countErrors(metrics, refused);
      return { refused: refused.errors ?? [] };
    }
    const ready = prepared;
    const begin = async (): Promise<Events> => {
      let events: Events;
      try {
        events = await run(ready, true);
      } catch (error) {
        events = refusal(exchange, error);
      }
      if (isAsyncIterable(events))
        return mapAsyncIterator(events, (event: ExecutionResult) => {
          const shown = masked(event);
          countErrors(metrics, shown);
          return shown;
        });
      // A subscription refused once it began (a check, its field, its variables): the spec's
      // request error, with no data and no path. A query's one result keeps its field errors.
      const one = masked(ready.kind === 'subscription' ? { ...events, errors: events.errors?.map(asRequestError) } : events);
      countErrors(metrics, one);
      return one;
    };
    return { kind: ready.kind, args: ready.args, begin };
  }

  async function result(exchange: Exchange, answer: AnswerHeaders | null, asked: OperationRequest): Promise<ExecutionResult> {
    let outcome: ExecutionResult;
    try {
      // The operation's result, or the refusal (thrown) that stops it before it runs. In this
      // function, not one of its own: each async layer is a promise a request.
      const prepared = prepare(exchange, answer, asked, false);
      outcome = 'args' in prepared ? ((await run(prepared, false)) as ExecutionResult) : prepared;
    } catch (error) {
      if (error === STREAM_ONLY) throw error;
      outcome = refusal(exchange, error);
    }
    return masked(outcome);
  }

  async function answer(
    exchange: Exchange,
    headers: AnswerHeaders | null,
    asked: OperationRequest,
    mediaType: JsonType,
  ): Promise<JsonAnswer> {
    const outcome = await result(exchange, headers, asked);
    // Counted by the face that answers them (the MCP face counts its own).
    countErrors(metrics, outcome);
    return json(outcome, mediaType);
  }

  function json(outcome: ExecutionResult, mediaType: JsonType): JsonAnswer {
    const type = `${mediaType}; charset=utf-8`;
    if (outcome.errors === undefined) return { status: 200, type, headers: {}, body: JSON.stringify(outcome) };
    // GraphQL over HTTP's status rules; under application/json a document's errors are a 200.
    const { status, headers } = resultInit(outcome, { documentErrors: mediaType !== 'application/json' });
    // The database could not serve (busy, away): the answer is 503 with Retry-After whatever the
    // media type, as REST's is, so clients and balancers retry it alike rather than read a 200.
    const unavailable = outcome.errors.some((error) => error.extensions?.code === 'SERVICE_UNAVAILABLE');
    if (unavailable) headers['Retry-After'] ??= String(retryAfterSeconds('SERVICE_UNAVAILABLE') ?? 1);
    return { status: unavailable ? 503 : status, type, headers, body: JSON.stringify(outcome) };
  }

  /** Whether the operation would pass the pipeline up to its checks: the same parse bounds, cache and validation, nothing charged or run. */
  function check(exchange: Exchange, asked: OperationRequest): readonly GraphQLError[] {
    let prepared: Prepared | ExecutionResult;
    try {
      prepared = prepare(exchange, null, asked, false);
    } catch (error) {
      prepared = refusal(exchange, error);
    }
    return 'args' in prepared ? [] : (masked(prepared).errors ?? []);
  }

  return { answer, result, stream, json, check };
}

/**
 * The spec's word for an error creating the source stream is a request error: no data, no path.
 * graphql-js gives it the field's path, which would make it a field error.
 */
function asRequestError(error: GraphQLError): GraphQLError {
  if (!error.path) return error;
  return new GraphQLError(error.message, { nodes: error.nodes, originalError: error.originalError, extensions: error.extensions });
}
