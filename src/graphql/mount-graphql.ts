import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DocumentNode } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import type { LiveFeed } from '../services/live/live-feed.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';
import { buildSalt } from '../config/version.ts';
import { AppError } from '../errors/index.ts';
import { errorHandler, sendErrorBody } from '../http/errors/error-handler.ts';
import { GRAPHQL_ROUTE } from '../http/route-config.ts';
import { idempotencyHooks } from '../http/idempotency/idempotency-hooks.ts';
import { precompressed } from '../http/caching/precompressed.ts';
import { lineWhenClosedEarly } from '../http/logging/access-log.ts';
import type { SendPrecompressed } from '../http/caching/precompressed.ts';
import type { ResponseStore } from '../http/caching/response-store.ts';
import { NO_STORE } from '../http/caching/cache-control.ts';
import type { KeyVerifier } from '../services/api-keys/index.ts';
import type { Credentials } from '../http/auth/credentials.ts';
import type { MaybePromise } from '../http/maybe-promise.ts';
import type { OperationRunner } from '../http/operation-runner.ts';
import { NO_METRICS } from '../telemetry/metrics-types.ts';
import { sendGraphQLErrors } from './coded-error.ts';
import { chargeMessages } from './checks/charge-messages.ts';
import { limitCost } from './checks/limit-cost.ts';
import { requireKey } from './checks/require-key.ts';
import { requireScopes } from './checks/require-scopes.ts';
import { checkStreamCounts } from './checks/stream-counts.ts';
import type { ServerContext } from './context.ts';
import { documentValidator } from './execution/document-validator.ts';
import { operationExecutors } from './execution/operation-executor.ts';
import { graphiqlPage } from './graphiql-page.ts';
import type { GraphiQLPage } from './graphiql-page.ts';
import { GRAPHQL_LIMITS } from './graphql-limits.ts';
import { answerKinds } from './http/answer-kind.ts';
import type { AnswerKind } from './http/answer-kind.ts';
import { frameAnswer, STATUS_RULES_OF } from './http/frame-answer.ts';
import { operationRequests } from './http/operation-request.ts';
import { graphqlExchangeOf } from './http/graphql-exchange.ts';
import { graphqlRunner, STREAM_ONLY } from './http/run-graphql.ts';
import { streamAnswer } from './http/stream-answer.ts';
import { createMaskError } from './mask-error.ts';
import { mountGraphQLWs } from './mount-graphql-ws.ts';
import type { SocketLimits } from './mount-graphql-ws.ts';
import { hasGraphQLErrors, mutationRequest } from './mutation-request.ts';
import { phaseSpans } from './operation-spans.ts';
import { documentParser } from './parse-document.ts';
import { operationFact } from './document-entry.ts';
import { petstoreSchema } from './petstore-schema.ts';
import { mountSchemaSdl } from './schema-sdl.ts';
import { missingScope, operationScopes } from './scopes.ts';
import { NO_SCOPES } from '../services/access-tokens/scopes.ts';
import { trustedDocumentsPolicy } from './trusted-documents.ts';
import { useResponseCache } from './use-response-cache.ts';

/**
 * What the parsed documents a server remembers may hold in memory (estimated): about a thousand
 * typical front-end operations, or twenty at the size limit.
 */
const DOCUMENT_CACHE_BYTES = 32 * 1024 * 1024;

export interface MountGraphQLOptions {
  db: Kysely<Database>;
  live: LiveFeed;
  /** Production runs only trusted documents, where there are any; its errors say less. */
  production?: boolean;
  /** Trusted documents by id; in production, the only operations that run. */
  trustedDocuments?: ReadonlyMap<string, string> | null;
  /** Operations and errors counted; nothing while metrics are off. */
  metrics?: Metrics;
  /** GraphQL's phases as spans (operation-spans.ts). */
  tracing?: boolean;
  /** Introspection (`__schema`, `__type`) answered; off: refused as a validation error. */
  introspection?: boolean;
  /** Queries and mutations run compiled by graphql-jit (same answers; off to compare). */
  jit?: boolean;
  /** The schema as an Apollo Federation v2 subgraph (GRAPHQL_FEDERATION). */
  federation?: boolean;
  /** Charges `count` messages to the caller's quota (sendMessage); throws RATE_LIMITED when fewer are left. */
  messageQuota?: (context: ServerContext, count: number) => MaybePromise<void>;
  /** GraphiQL for browsers at the endpoint, its assets under `<endpoint>/assets/`. */
  graphiql?: boolean;
  /** Told of a key the response cache's versions read finds no longer working. */
  verifier: KeyVerifier;
  /** Checks the credentials of WebSocket connections (graphql-ws), which no HTTP hook sees. */
  credentials: Credentials;
  /** What a WebSocket is charged, as the HTTP edge charges a request (mount-graphql-ws.ts). */
  socketLimits: SocketLimits;
  /** Where query answers are kept per account, served while the data they were read from is unchanged (use-response-cache.ts); null: nowhere. */
  responseCache?: { store: ResponseStore; maxEntryBytes: number } | null;
}

/**
 * GraphQL at /graphql inside the Fastify app, beside REST. Every operation, over GET and POST,
 * as JSON or as a stream (SSE, multipart), and every graphql-ws subscribe, takes one path: the
 * parameters Fastify has read go straight into the server's own operation pipeline
 * (http/run-graphql.ts); the transports only frame what it answers (http/stream-answer.ts,
 * mount-graphql-ws.ts). GraphiQL's page and its assets are beside. Returns the pipeline as other
 * faces run operations through it (MCP's tools).
 */
export async function mountGraphQL(
  app: FastifyInstance,
  {
    verifier,
    credentials,
    socketLimits,
    responseCache: kept = null,
    graphiql: withGraphiQL = true,
    introspection = true,
    jit = true,
    federation = false,
    messageQuota,
    ...options
  }: MountGraphQLOptions,
): Promise<OperationRunner> {
  const metrics = options.metrics ?? NO_METRICS;
  app.decorateRequest('graphql', null);
  const production = options.production ?? false;
  const documents = documentParser({ maxCacheBytes: DOCUMENT_CACHE_BYTES });
  metrics.observe({ documents: documents.cachedBytes });
  const schema = petstoreSchema({ federation });
  const maskError = createMaskError({ production });
  const validate = documentValidator(schema, { introspection, production });
  // What each operation's fields need of a credential, worked out once per document.
  const scopesOfSchema = (document: DocumentNode, operationName: string | null | undefined) =>
    operationScopes(schema, document, operationName);
  const scopesOf = (document: DocumentNode, operationName: string | null | undefined) =>
    operationFact(document, operationName, 'scopes', scopesOfSchema, schema);
  // The key before the cost: a caller without one is refused before the document is weighed.
  const checks = [
    requireKey,
    requireScopes(scopesOf),
    checkStreamCounts,
    limitCost(schema),
    ...(messageQuota ? [chargeMessages(messageQuota)] : []),
  ];
  const graphiql = withGraphiQL ? graphiqlPage(`${GRAPHQL_ROUTE}/assets`) : null;
  if (graphiql) mountGraphiQLAssets(app, graphiql);
  const sdl = printSchemaWithDirectives(schema);
  mountSchemaSdl(app, `${GRAPHQL_ROUTE}/schema.graphql`, sdl, { open: introspection });
  const tracing = options.tracing ?? false;
  // Each request's one record of the operation it asks for, which every guarantee below reads.
  const requests = operationRequests({
    trusted: trustedDocumentsPolicy(production, options.trustedDocuments ?? null),
    documents,
    phase: phaseSpans(tracing),
    // Where introspection is open the schema is public, and a caller without a key may read it (GraphiQL before a key is set).
    keyRequired: !introspection,
  });
  const operationOf = requests.ofRequest;
  const answerKind = answerKinds({ withPage: graphiql !== null, operationOf });
  const runner = graphqlRunner({
    schema,
    db: options.db,
    live: options.live,
    validate,
    executorOf: operationExecutors(schema, { jit }),
    checks,
    maskError,
    metrics,
    tracing,
  });
  mountGraphQLWs(app, {
    credentials,
    stream: (exchange, params) => runner.stream(exchange, null, requests.of(params)),
    limits: socketLimits,
    holdSocket: options.live.holdSocket,
  });
  if (kept) {
    useResponseCache(app, {
      ...kept,
      url: GRAPHQL_ROUTE,
      db: options.db,
      verifier,
      schema,
      operationOf,
      salt: buildSalt(),
      metrics,
      answerKind,
    });
  }
  // Idempotency-Key applies to mutations, and only an answer without errors is kept for replays;
  // a credential lacking a scope any of the operation's fields needs is refused whole (its run
  // could never be kept, and its replay would show what it may not see).
  const mutationOf = (request: FastifyRequest) => mutationRequest(request, operationOf(request));
  const idempotent = idempotencyHooks(options.db, {
    applies: (request) => mutationOf(request) !== null,
    succeeded: (payload) => !hasGraphQLErrors(payload),
    refuses: (request, principal) => {
      const mutation = mutationOf(request);
      return mutation ? missingScope(principal, scopesOf(mutation.document, mutation.operationName)) : null;
    },
  });
  app.route({
    // Errors raised before the operation runs (rate limit, idempotency, a bad request) still answer as GraphQL.
    errorHandler: errorHandler(sendGraphQLErrors, 'graphql'),
    preHandler: idempotent.preHandler,
    // Framing last: the kept answer is the result's JSON, which a replay frames for the transport it is asked on.
    onSend: [noStoreForPost, idempotent.onSend, framer(answerKind)],
    url: GRAPHQL_ROUTE,
    method: ['GET', 'POST'],
    // Before a byte is parsed: 413 past it (graphql-limits.ts).
    bodyLimit: GRAPHQL_LIMITS.maxBodyBytes,
    // GraphQL over HTTP has no HEAD: OPTIONS's Allow would list it.
    exposeHeadRoute: false,
    // GraphQL is described by its schema (introspection, GraphiQL, docs/graphql.md), not by the REST document.
    schema: { hide: true },
    config: { largeAnswers: true },
    handler: async (req, reply) => {
      const wanted = answerKind(req);
      if (wanted.kind === 'page' && graphiql) return sendGraphiQL(req, reply, await graphiql.html());
      if (wanted.kind === 'stream') return sendEvents(req, reply, wanted);
      if (wanted.kind !== 'json' && wanted.kind !== 'framed') return sendErrorBody(reply, NOTHING_ACCEPTABLE);
      const asked = operationOf(req);
      if (asked instanceof AppError) throw asked;
      let answer;
      try {
        answer = await runner.answer(req, reply, asked, wanted.kind === 'json' ? wanted.type : STATUS_RULES_OF[wanted.type]);
        if (wanted.kind === 'framed') graphqlExchangeOf(req).framed = true;
      } catch (error) {
        if (error === STREAM_ONLY) return sendErrorBody(reply, STREAM_ONLY);
        throw error;
      }
      return reply.code(answer.status).headers(answer.headers).type(answer.type).send(answer.body);
    },
  });
  /**
   * A subscription, or a query's increments, to a client that takes a stream: the pipeline's events
   * framed for it; a result that comes alone (a refusal) as JSON where the client takes JSON.
   */
  async function sendEvents(req: FastifyRequest, reply: FastifyReply, wanted: AnswerKind & { kind: 'stream' }): Promise<FastifyReply> {
    const asked = operationOf(req);
    if (asked instanceof AppError) throw asked;
    const streaming = runner.stream(req, reply, asked);
    const refused = 'refused' in streaming;
    const events = refused ? { errors: [...streaming.refused] } : await streaming.begin();
    if (!isAsyncIterable(events) && wanted.json) {
      const answer = runner.json(events, wanted.json);
      return reply.code(answer.status).headers(answer.headers).type(answer.type).send(answer.body);
    }
    return sendStream(reply, streamAnswer(wanted.type, refused ? null : streaming.kind, events));
  }

  return {
    schema,
    sdl,
    scopesOf: (document, operationName) => scopesOf(document, operationName),
    scopesOfCall: (call) => {
      const { document } = requests.of(call);
      return document instanceof Error ? NO_SCOPES : scopesOf(document, call.operationName);
    },
    run: (exchange, answer, call) => runner.result(exchange, answer, requests.of(call)),
    check: (exchange, call) => runner.check(exchange, requests.of(call)),
    subscribe: async (exchange, call) => {
      const streaming = runner.stream(exchange, null, requests.of(call));
      return 'refused' in streaming ? { errors: [...streaming.refused] } : streaming.begin();
    },
  };
}

const NOTHING_ACCEPTABLE = AppError.of('NOT_ACCEPTABLE', 'graphqlNothingAcceptable');

/** Frames the result (run now, or replayed for an Idempotency-Key) for a client that takes only a stream. */
function framer(answerKind: (req: FastifyRequest) => AnswerKind) {
  return (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void => {
    const wanted = answerKind(req);
    if (wanted.kind !== 'framed' || typeof payload !== 'string') return done(null, payload);
    // A refusal before it ran keeps its JSON; a replay of a kept answer is framed as the run would have been.
    if (!req.graphql?.framed && reply.getHeader('idempotent-replayed') !== 'true') return done(null, payload);
    const { contentType, body } = frameAnswer(wanted.type, payload);
    reply.type(contentType);
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-cache');
    done(null, body);
  };
}

/** A POST may run createKey, whose answer holds a secret: no cache on the way may keep any POST answer. */
function noStoreForPost(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  if (req.method === 'POST') reply.header('Cache-Control', NO_STORE);
  done(null, payload);
}

const pages = new WeakMap<FastifyInstance, { html: string; send: SendPrecompressed }>();

/** GraphiQL's page, a few hundred bytes: a browser keeps it and asks again with If-None-Match. */
function sendGraphiQL(req: FastifyRequest, reply: FastifyReply, html: string): Promise<FastifyReply> {
  let page = pages.get(reply.server);
  if (page?.html !== html) pages.set(reply.server, (page = { html, send: precompressed(html, 'text/html; charset=utf-8') }));
  return page.send(req, reply, 'no-cache');
}

/**
 * GraphiQL's scripts, styles and icon, named by their content's hash: kept a year and never asked
 * for again, whatever is POSTed to /graphql. Static, so not counted against any budget.
 */
function mountGraphiQLAssets(app: FastifyInstance, page: GraphiQLPage): void {
  app.get<{ Params: { name: string } }>(
    `${GRAPHQL_ROUTE}/assets/:name`,
    { schema: { hide: true }, config: { asset: true } },
    async (req, reply) => {
      const send = await page.asset(req.params.name);
      if (!send) throw AppError.of('NOT_FOUND', 'graphiqlAsset', { asset: req.params.name });
      return send(req, reply, 'public, max-age=31536000, immutable');
    },
  );
}

/** Sends a stream's framed answer (SSE or multipart: events as they come, or a result that came alone) through Fastify. */
async function sendStream(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  response.headers.forEach((value, key) => {
    reply.header(key, value);
  });
  reply.status(response.status);
  // A proxy that buffers answers (nginx) would hold events back: this one goes out as written.
  reply.header('X-Accel-Buffering', 'no');
  lineWhenClosedEarly(reply);
  return reply.send(response.body ? Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>) : '');
}
