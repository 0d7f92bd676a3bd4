import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { idempotencyHooks } from '../http/idempotency-hooks.ts';
import { hasGraphQLErrors, isMutationRequest } from './mutation-request.ts';
import { AppError } from '../errors/index.ts';
import { errorHandler, sendErrorBody } from '../http/error-handler.ts';
import { NO_STORE } from '../http/secret-answer.ts';
import { sendGraphQLErrors } from './coded-error.ts';
import type { GraphQLOptions } from './create-graphql.ts';
import { createGraphQL } from './create-graphql.ts';
import { documentParser } from './parse-document.ts';
import { petstoreSchema } from './petstore-schema.ts';
import { fastPathRequest, fastPathResponse, PlainAnswer } from './fast-path.ts';
import { mountGraphQLWs } from './mount-graphql-ws.ts';
import { trustedDocumentsPolicy } from './plugins/use-trusted-documents.ts';
import { yogaWholePath } from './yoga-whole-path.ts';
import type { KeyVerifier } from '../services/api-keys/index.ts';
import type { MaybePromise } from '../services/maybe-promise.ts';
import { noneMatchHits } from '../http/entity-tag.ts';
import { precompressed } from '../http/precompressed.ts';
import type { SendPrecompressed } from '../http/precompressed.ts';
import { GRAPHQL_ROUTE } from '../http/graphql-route.ts';
import { graphiqlPage } from './graphiql-page.ts';
import type { GraphiQLPage } from './graphiql-page.ts';
import { validatorHeaders } from '../http/use-conditional-get.ts';
import type { ResponseStore, StoredAnswer } from '../http/response-store.ts';
import { graphqlResponseCache } from './response-cache.ts';
import { GRAPHQL_LIMITS } from './graphql-limits.ts';
import type { CacheSlot } from './response-cache.ts';
import { buildSalt } from '../config/version.ts';
import { NO_METRICS } from '../telemetry/metrics-types.ts';

/**
 * What the parsed documents a server remembers may hold in memory (estimated): about a thousand
 * typical front-end operations, or twenty at the size limit.
 */
const DOCUMENT_CACHE_BYTES = 32 * 1024 * 1024;

export interface MountGraphQLOptions extends Omit<GraphQLOptions, 'log' | 'documents' | 'schema' | 'graphiql'> {
  /** GraphiQL for browsers at the endpoint, its assets under `<endpoint>/assets/`. */
  graphiql?: boolean;
  /** Plain JSON POSTs go from Fastify's parsed body straight to Yoga's operation pipeline (fast-path.ts). */
  fastPath?: boolean;
  /** Checks the keys of WebSocket connections (graphql-ws), which no HTTP hook sees. */
  verifier: KeyVerifier;
  /** Charges a WebSocket subscribe to its key's request budget (throws RATE_LIMITED), as the HTTP edge does a request. */
  rateLimit: (keyId: number) => MaybePromise<void>;
  /** Where query answers are kept per account, served while the data they were read from is unchanged (response-cache.ts); null: nowhere. */
  responseCache?: { store: ResponseStore; maxEntryBytes: number } | null;
}

/** Serves Yoga at /graphql (GET and POST, and subscriptions over WebSocket) inside the Fastify app, beside REST. */
export async function mountGraphQL(
  app: FastifyInstance,
  { fastPath = true, verifier, rateLimit, responseCache: kept = null, graphiql: withGraphiQL = true, ...options }: MountGraphQLOptions,
): Promise<void> {
  const documents = documentParser({ maxCacheBytes: DOCUMENT_CACHE_BYTES });
  (options.metrics ?? NO_METRICS).observe({ documents: documents.cachedBytes });
  const schema = petstoreSchema();
  const graphiql = withGraphiQL ? graphiqlPage(`${GRAPHQL_ROUTE}/assets`) : null;
  const yoga = await createGraphQL({ ...options, documents, schema, graphiql, log: app.log });
  if (graphiql) mountGraphiQLAssets(app, graphiql);
  const trusted = trustedDocumentsPolicy(options.production ?? false, options.trustedDocuments ?? null);
  mountGraphQLWs(app, yoga, { verifier, trusted, rateLimit });
  const responseCache = kept
    ? graphqlResponseCache({
        ...kept,
        db: options.db,
        verifier,
        schema,
        trusted,
        documents,
        salt: buildSalt(),
        metrics: options.metrics ?? NO_METRICS,
      })
    : null;
  // Idempotency-Key applies to mutations, and only an answer without errors is kept for replays.
  const idempotent = idempotencyHooks(options.db, {
    applies: (request) => isMutationRequest(request, documents, options.trustedDocuments ?? null),
    succeeded: (payload) => !hasGraphQLErrors(payload),
  });
  app.route({
    // Errors raised before Yoga runs (rate limit, idempotency, a bad body) still answer as GraphQL.
    errorHandler: errorHandler(sendGraphQLErrors, 'graphql'),
    preHandler: idempotent.preHandler,
    onSend: idempotent.onSend,
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST'],
    // Before a byte is parsed: 413 past it (graphql-limits.ts).
    bodyLimit: GRAPHQL_LIMITS.maxBodyBytes,
    // GraphQL over HTTP has no HEAD: Yoga would refuse it after Fastify routed it, and OPTIONS's Allow would list it.
    exposeHeadRoute: false,
    // GraphQL is described by its schema (introspection, GraphiQL, docs/graphql.md), not by the REST document.
    schema: { hide: true },
    config: { largeAnswers: true },
    handler: async (req, reply) => {
      // GraphQL over HTTP: a POST body is a JSON object. Yoga would read `[]`, `1` or `null` as an empty body.
      if (req.method === 'POST' && (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))) {
        throw new AppError('VALIDATION_FAILED', 'The request body must be a JSON object.');
      }
      const slot = responseCache ? await responseCache.slot(req) : null;
      if (slot) {
        if (req.method === 'GET' && noneMatchHits(req.headers['if-none-match'], slot.tag, false)) {
          return validatorHeaders(reply, slot.tag, 'Accept').code(304).send();
        }
        const kept = slot.runFresh ? undefined : await responseCache?.lookup(slot);
        if (kept) return sendAnswer(req, reply, slot, kept);
      }
      const fast = fastPath ? fastPathRequest(req) : null;
      const answer = fast ? await fastPathResponse(yoga, req, reply, fast) : await yogaWholePath(yoga, req, reply);
      // A fresh answer without errors is kept, where the request has a slot.
      const fresh = (answered: StoredAnswer) => {
        if (slot) responseCache?.keep(slot, answered);
        return sendAnswer(req, reply, slot, answered);
      };
      if (answer instanceof PlainAnswer) return fresh({ type: answer.contentType, body: answer.body });
      const text = slot ? await plainJsonText(answer) : null;
      if (text !== null && !hasGraphQLErrors(text))
        return fresh({ type: answer.headers.get('content-type') ?? 'application/json', body: text });
      if (req.method === 'POST') reply.header('Cache-Control', NO_STORE);
      return sendYogaResponse(reply, answer, text);
    },
  });
}

function sendAnswer(req: FastifyRequest, reply: FastifyReply, slot: CacheSlot | null, { type, body }: StoredAnswer): FastifyReply {
  // A POST may run createKey, whose answer holds a secret: no cache on the way may keep any POST answer.
  if (req.method === 'POST') reply.header('Cache-Control', NO_STORE);
  else if (slot) validatorHeaders(reply, slot.tag, 'Accept');
  return reply.type(type).send(body);
}

/** The text of a Yoga answer that is plain JSON with status 200; null for any other, left unread. */
async function plainJsonText(response: Response): Promise<string | null> {
  const type = response.headers.get('content-type') ?? '';
  return response.status === 200 && /^application\/(graphql-response\+)?json/.test(type) ? response.text() : null;
}

const pages = new WeakMap<FastifyReply['server'], { html: string; send: SendPrecompressed }>();

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
      if (!send) throw new AppError('NOT_FOUND', `No GraphiQL asset ${req.params.name}: the page names its assets; reload it.`);
      return send(req, reply, 'public, max-age=31536000, immutable');
    },
  );
}

const STREAM_ONLY = new AppError(
  'NOT_ACCEPTABLE',
  'A subscription is answered as a stream of events: send Accept: text/event-stream (GraphQL over SSE) or multipart/mixed (Apollo Client), or subscribe over WebSocket (graphql-ws).',
);

/** Sends a Fetch API Response from Yoga through Fastify, so the route's onSend hooks see it. */
async function sendYogaResponse(reply: FastifyReply, response: Response, text: string | null = null): Promise<FastifyReply> {
  // Yoga answers an Accept header it cannot serve (a browser asking for a page where GraphiQL is
  // off, a subscription asked for as JSON) with an empty 406 whose Accept lists what it could send.
  if (response.status === 406) {
    await response.body?.cancel();
    const streamsOnly = !(response.headers.get('accept') ?? 'application/json').includes('application/json');
    return sendErrorBody(reply, streamsOnly ? STREAM_ONLY : new AppError('NOT_ACCEPTABLE'));
  }
  if (response.status === 200 && (response.headers.get('content-type') ?? '').startsWith('text/html')) {
    return sendGraphiQL(reply.request, reply, text ?? (await response.text()));
  }
  response.headers.forEach((value, key) => {
    reply.header(key, value);
  });
  reply.status(response.status);
  // A subscription's stream (SSE or multipart) goes out as it comes. (The type first: reading `body` makes a stream.)
  if (/^(text\/event-stream|multipart\/mixed)/.test(response.headers.get('content-type') ?? '') && response.body) {
    // A proxy that buffers answers (nginx) would hold events back: this one goes out as written.
    reply.header('X-Accel-Buffering', 'no');
    // Yoga's body is its fetch ponyfill's stream, which Readable.fromWeb refuses; it is async-iterable.
    return reply.send(Readable.from(response.body as unknown as AsyncIterable<Uint8Array>, { objectMode: false }));
  }
  // Buffered, not streamed: answers are small JSON, and onSend hooks (idempotency) need the text.
  return reply.send(text ?? (await response.text()));
}
