import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { KeyVerifier } from '../../services/api-keys/index.ts';
import type { VersionedTable, Versions } from '../../services/versions/index.ts';
import { requestVersions } from './request-versions.ts';
import type { ResponseStore, StoredAnswer } from './response-store.ts';
import { entityTag, lastEntityTag, noneMatchHits } from './entity-tag.ts';
import { freshnessAsked, validatorHeaders } from './cache-control.ts';
import { addFirstOnSend, addRouteHooks, stepWhenReady } from '../route-config.ts';
import type { HookStep } from '../route-config.ts';

/**
 * How a GET route's answers are tagged. A list's answer is a function of its URL, the caller's
 * account if `perAccount`, and these tables as the caller sees them: tagged from their versions
 * before the handler, so a matching revalidation skips the query. The route's own preHandlers run
 * first, so a request it refuses after its schema has passed it (a bad cursor) is refused before
 * any tag can answer it. One record (`fromBody`) is tagged by a hash of the answer itself, after
 * the handler: its one-row read is cheaper than a versions read, and the tag then changes only
 * when the record does.
 */
export type Validators = { tables: readonly VersionedTable[]; perAccount: boolean } | { fromBody: true };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Gives the route's 200 answers an ETag and answers a matching If-None-Match with 304 (use-conditional-get.ts). */
    validators?: Validators;
  }
  interface FastifyRequest {
    entityTag: string | null;
    /** Where a list's answer is kept once it is made (its store key), or null: served from the store, or not to be kept. */
    keptAs: string | null;
  }
}

/** The response cache, as a list's answers use it: the store GraphQL's answers share, its bounds and its count. */
export interface KeptAnswers {
  store: ResponseStore;
  /** Longer answers (in characters) are not kept. */
  maxEntryBytes: number;
  /** Told of every lookup: whether an answer was found. */
  onLookup: (hit: boolean) => void;
}

export interface ConditionalGetOptions {
  db: Kysely<Database>;
  /** Told of a key the versions read finds no longer working. */
  verifier: KeyVerifier;
  /** What else every answer depends on (the release, the base URL of links): a change makes every old tag stale. */
  salt: string;
  /** Where a list's answers are kept and served again while their tag stands; null (RESPONSE_CACHE=false): every request runs. */
  kept: KeptAnswers | null;
}

/**
 * Conditional GET and HEAD for the routes that declare `validators` (RFC 9110 §13): a list's
 * tag comes from versions read in one statement before the handler (services/versions), so a
 * matching revalidation answers 304 without reading or shaping the list, and, with the response
 * cache on, any other request of the URL is answered with what the route made under that tag
 * (docs/caching.md, REST lists kept); a record's tag is its answer's hash. Matching runs after
 * the key check and the request's validation, as §13.2.1 orders it. No Last-Modified:
 * one-second dates cannot tell two writes in the same second apart, and a client revalidating
 * by date could be told 304 after a write it was told had succeeded.
 */
export function useConditionalGet(app: FastifyInstance, { db, verifier, salt, kept }: ConditionalGetOptions): void {
  app.decorateRequest('entityTag', null);
  app.decorateRequest('keptAs', null);
  const keep = kept && keepHook(kept);
  const serve = kept && serveHook(kept);
  // Only the routes that declare validators get the hooks: every other route pays nothing.
  app.addHook('onRoute', (route) => {
    const validators = route.config?.validators;
    if (!validators) return;
    if ('fromBody' in validators) {
      addRouteHooks(route, { onSend: tagBody });
      return;
    }
    const { tables, perAccount } = validators;
    // Between two writes every request names the same versions: hashed once (per account where it counts).
    const tagOf = lastEntityTag();
    /** The answer's tag from the versions read; a matching If-None-Match answered 304 here. */
    const tagged: HookStep<Versions> = (request, reply, read, done) => {
      // A validator belongs to one URL (RFC 9110 §8.8.1), so the URL need not be in it; hashed,
      // so it shows nothing of the versions it names.
      const parts = [salt, perAccount ? String(request.principal?.accountId) : '*'];
      for (const table of tables) parts.push(read[table]);
      const tag = tagOf(parts);
      request.entityTag = tag;
      validatorHeaders(reply, tag);
      // `*` needs to know the resource exists, which only the handler finds out (onSend below).
      // Answered here, the request goes no further: a callback-style hook that sends does not call done.
      if (noneMatchHits(request.headers['if-none-match'], tag, false)) return void reply.code(304).send();
      if (!kept || !serve) return done();
      // The tag names one answer of this URL (that is what makes its 304 right), so an answer
      // kept under the tag and the URL is the one the route would make now: never stale. Per
      // account, as GraphQL's are, though a page of pets is everyone's: no account ever reads an
      // answer another's request made. Not hashed again: the tag is a hash already, and the URL
      // is no longer than Node lets a request line be.
      const key = `${tag.slice(3, -1)} ${request.principal?.accountId} ${request.url}`;
      const { runFresh, keepNothing } = freshnessAsked(request.headers['cache-control']);
      // HEAD's answer has no body to keep; it is served from what a GET kept.
      if (!keepNothing && request.method === 'GET') request.keptAs = key;
      if (runFresh) return done();
      stepWhenReady(kept.store.get(key), serve, request, reply, done);
    };
    // Callback-style, one promise a request (the versions read's): as an async hook awaiting a
    // database it mostly has at once, it made five (docs/performance.md, promises a request).
    const preHandler = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
      const { principal } = request;
      if (principal === null) return done();
      stepWhenReady(requestVersions(db, verifier, request, principal), tagged, request, reply, done);
    };
    addRouteHooks(route, { preHandler, onSend: settle });
    if (keep) addFirstOnSend(route, keep);
  });
}

/** A kept answer sent as the route made it (its Link header too), or the request on its way to the route. */
function serveHook({ onLookup }: KeptAnswers): HookStep<StoredAnswer | undefined> {
  return (request, reply, answer, done) => {
    onLookup(answer !== undefined);
    if (answer === undefined) return done();
    request.keptAs = null;
    if (answer.link !== undefined) reply.header('Link', answer.link);
    // Answered here, the request goes no further: a callback-style hook that sends does not call done.
    reply.type(answer.type).send(answer.body);
  };
}

/**
 * The route's 200 kept as the route made it, before compression (this hook runs first): a kept
 * answer is compressed for each request that asks, as the route's own answer is (docs/caching.md).
 */
function keepHook({ store, maxEntryBytes }: KeptAnswers) {
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void => {
    const key = request.keptAs;
    const { principal } = request;
    if (key !== null && principal !== null && reply.statusCode === 200 && typeof payload === 'string' && payload.length <= maxEntryBytes) {
      const link = reply.getHeader('link');
      const answer: StoredAnswer = { type: String(reply.getHeader('content-type')), body: payload };
      if (typeof link === 'string') answer.link = link;
      void store.set(key, answer, principal.accountId);
    }
    done(null, payload);
  };
}

function notModified(reply: FastifyReply, done: (error: null, payload: unknown) => void): void {
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  done(null, '');
}

/** One record's answer, tagged by its own bytes. */
function tagBody(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  if (reply.statusCode !== 200 || typeof payload !== 'string' || request.principal === null) return done(null, payload);
  const tag = entityTag([payload]);
  validatorHeaders(reply, tag);
  if (noneMatchHits(request.headers['if-none-match'], tag, true)) return notModified(reply, done);
  done(null, payload);
}

/** `*` answered once the route found its resource; an error answer loses the validator headers. */
function settle(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  if (request.entityTag === null) return done(null, payload);
  if (reply.statusCode === 200 && noneMatchHits(request.headers['if-none-match'], request.entityTag, true)) return notModified(reply, done);
  // An error answer has no representation to validate.
  if (reply.statusCode !== 200 && reply.statusCode !== 304) {
    reply.removeHeader('etag');
    reply.removeHeader('cache-control');
    if (reply.getHeader('vary') === 'Authorization') reply.removeHeader('vary');
  }
  done(null, payload);
}
