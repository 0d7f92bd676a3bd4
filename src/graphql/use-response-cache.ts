import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { AppError } from '../errors/index.ts';
import { entityTag, noneMatchHits } from '../http/caching/entity-tag.ts';
import { requestVersions } from '../http/caching/request-versions.ts';
import type { ResponseStore, StoredAnswer } from '../http/caching/response-store.ts';
import type { MaybePromise } from '../http/maybe-promise.ts';
import { freshnessAsked, validatorHeaders } from '../http/caching/cache-control.ts';
import { addRouteHooks, stepWhenReady } from '../http/route-config.ts';
import type { HookStep } from '../http/route-config.ts';
import type { KeyVerifier } from '../services/api-keys/index.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';
import { cacheableReads } from './cacheable-query.ts';
import type { AnswerKind } from './http/answer-kind.ts';
import type { OperationRequest } from './http/operation-request.ts';
import { graphqlExchangeOf } from './http/graphql-exchange.ts';
import { operationFact } from './document-entry.ts';

export interface ResponseCacheOptions {
  /** The GraphQL route this cache serves. */
  url: string;
  db: Kysely<Database>;
  /** Told of a key the versions read finds no longer working. */
  verifier: KeyVerifier;
  store: ResponseStore;
  /**
   * The request's one record of the operation it asks for (http/operation-request.ts): a request
   * malformed, refused by the trusted-documents rule or over a limit is never looked up, and the
   * route refuses it.
   */
  operationOf: (req: FastifyRequest) => OperationRequest | AppError;
  /** What the documents run against: where each field says what it reads (resolvers/reading.ts). */
  schema: GraphQLSchema;
  /** The release and the build: an answer kept by another is never served (its shape may differ). */
  salt: string;
  metrics: Metrics;
  /** Longer answers (in characters) are not kept. */
  maxEntryBytes: number;
  /** How each request is answered (http/answer-kind.ts): only JSON answers are kept. */
  answerKind: (req: FastifyRequest) => AnswerKind;
}

/** Where one request's answer is kept, and the entity tag it is sent with over GET. */
export interface CacheSlot {
  key: string;
  tag: string;
  accountId: number;
  /** `Cache-Control: no-cache` or `max-age=0` (RFC 9111 §5.2.1): nothing kept is served; a matching tag still gets its 304. */
  runFresh: boolean;
  /** `no-store`: nothing of the answer is kept. */
  keepNothing: boolean;
  /** Answered from the store: nothing to keep again. */
  served: boolean;
}

/**
 * GraphQL query answers kept per account and served again while nothing they were read from has
 * changed, as hooks on the GraphQL route, which knows nothing of them. An answer is keyed by
 * everything it is a function of: the document that runs (its text, or the trusted document its
 * id names, under the policy every path applies), the operation name, the variables, the negotiated
 * media type, the caller's account and the versions of what its fields read (as each field
 * declares it, resolvers/reading.ts), read with each request in one statement with the key's
 * standing. So a write acknowledged on any instance, through either face, makes every answer
 * read before it unreachable at once; old answers just age out. Queries over GET carry the key's
 * tag as their ETag and revalidate with 304.
 */
export function useResponseCache(app: FastifyInstance, options: ResponseCacheOptions): void {
  const { url, db, verifier, store, operationOf, schema, salt, metrics, maxEntryBytes, answerKind } = options;
  const readsOf = (document: DocumentNode, operationName: string | null | undefined) =>
    cacheableReads(schema, document, operationName ?? undefined);

  /** Where the request's answer is kept: null at once for a request that is not kept (not JSON, not a query…). */
  function slotOf(req: FastifyRequest): MaybePromise<CacheSlot | null> {
    const { principal } = req;
    if (principal === null) return null;
    const wanted = answerKind(req);
    if (wanted.kind !== 'json') return null;
    const asked = operationOf(req);
    if (asked instanceof AppError || asked.document instanceof Error || asked.text === null) return null;
    const { params, text: document } = asked;
    const reads = operationFact(asked.document, params.operationName, 'reads', readsOf, schema);
    if (reads === null) return null;
    // Read where the operation will read (read-routing.ts: a replica, or the primary), so the key names what the answer holds.
    req.access ??= 'read';
    return requestVersions(db, verifier, req, principal).then((versions) => {
      const parts = [
        salt,
        document,
        params.operationName ?? '',
        JSON.stringify(params.variables ?? null),
        wanted.type,
        String(principal.accountId),
        // Callers of one account whose credentials may do different things never share an answer.
        principal.scopes === null ? '*' : [...principal.scopes].sort().join(' '),
      ];
      for (const table of reads) parts.push(`${table}:${versions[table]}`);
      const tag = entityTag(parts);
      return { key: tag.slice(3, -1), tag, accountId: principal.accountId, ...freshnessAsked(req.headers['cache-control']), served: false };
    });
  }

  /** A kept answer sent, or the request on its way to run (done). */
  const serve: HookStep<StoredAnswer | undefined> = (req, reply, kept, done) => {
    metrics.responseCache(kept !== undefined);
    const { slot } = graphqlExchangeOf(req);
    if (!kept || !slot) return done();
    slot.served = true;
    // Answered here, the request goes no further: a callback-style hook that sends does not call done.
    reply.type(kept.type).send(kept.body);
  };

  const withSlot: HookStep<CacheSlot | null> = (req, reply, slot, done) => {
    if (!slot) return done();
    graphqlExchangeOf(req).slot = slot;
    if (req.method === 'GET' && noneMatchHits(req.headers['if-none-match'], slot.tag, false)) {
      validatorHeaders(reply, slot.tag, 'Accept').code(304).send();
      return;
    }
    if (slot.runFresh) return done();
    stepWhenReady(store.get(slot.key), serve, req, reply, done);
  };

  // Callback-style: a request the cache does not keep passes without a promise, and one it keeps
  // makes one for its versions read (as an async hook it made six: docs/performance.md).
  const preHandler = (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    let slot: MaybePromise<CacheSlot | null>;
    try {
      slot = slotOf(req);
    } catch (error) {
      return done(error as Error);
    }
    stepWhenReady(slot, withSlot, req, reply, done);
  };

  // graphql-js and JIT put `errors` before `data`: an answer that starts with data has no errors.
  const answeredWithoutErrors = (payload: unknown): payload is string => typeof payload === 'string' && payload.startsWith('{"data":');

  const onSend = (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    const slot = req.graphql?.slot;
    if (!slot || reply.statusCode !== 200 || !answeredWithoutErrors(payload)) return done(null, payload);
    if (!slot.served && !slot.keepNothing && payload.length <= maxEntryBytes) {
      void store.set(slot.key, { type: String(reply.getHeader('content-type')), body: payload }, slot.accountId);
    }
    if (req.method === 'GET') validatorHeaders(reply, slot.tag, 'Accept');
    done(null, payload);
  };

  app.addHook('onRoute', (route) => {
    if (route.url !== url) return;
    addRouteHooks(route, { preHandler, onSend });
  });
}
