import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { KeyVerifier } from '../../services/api-keys/index.ts';
import type { VersionedTable, Versions } from '../../services/versions/index.ts';
import { requestVersions } from './request-versions.ts';
import { entityTag, lastEntityTag, noneMatchHits } from './entity-tag.ts';
import { validatorHeaders } from './cache-control.ts';
import { addRouteHooks, stepWhenReady } from '../route-config.ts';
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
  }
}

export interface ConditionalGetOptions {
  db: Kysely<Database>;
  /** Told of a key the versions read finds no longer working. */
  verifier: KeyVerifier;
  /** What else every answer depends on (the release, the base URL of links): a change makes every old tag stale. */
  salt: string;
}

/**
 * Conditional GET and HEAD for the routes that declare `validators` (RFC 9110 §13): a list's
 * tag comes from versions read in one statement before the handler (services/versions), so a
 * matching revalidation answers 304 without reading or shaping the list; a record's tag is its
 * answer's hash. Matching runs after the key check and the request's validation, as §13.2.1
 * orders it. No Last-Modified: one-second dates cannot tell two writes in the same second
 * apart, and a client revalidating by date could be told 304 after a write it was told had
 * succeeded.
 */
export function useConditionalGet(app: FastifyInstance, { db, verifier, salt }: ConditionalGetOptions): void {
  app.decorateRequest('entityTag', null);
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
      if (noneMatchHits(request.headers['if-none-match'], tag, false)) reply.code(304).send();
      else done();
    };
    // Callback-style, one promise a request (the versions read's): as an async hook awaiting a
    // database it mostly has at once, it made five (docs/performance.md, promises a request).
    const preHandler = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
      const { principal } = request;
      if (principal === null) return done();
      stepWhenReady(requestVersions(db, verifier, request, principal), tagged, request, reply, done);
    };
    addRouteHooks(route, { preHandler, onSend: settle });
  });
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
