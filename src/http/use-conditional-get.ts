import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { readVersions } from '../services/versions/index.ts';
import type { VersionedTable } from '../services/versions/index.ts';
import { entityTag, noneMatchHits, varyOn } from './entity-tag.ts';

/** A GET route's answer is a function of its URL, the caller's account if `perAccount`, and these tables. */
export interface Validators {
  tables: readonly VersionedTable[];
  perAccount: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Gives the route's 200 answers an ETag and answers a matching If-None-Match with 304 (use-conditional-get.ts). */
    validators?: Validators;
  }
  interface FastifyRequest {
    entityTag: string | null;
  }
}

/** Every keyed answer may be kept by the caller's own cache only, and must be revalidated before each use. */
export const KEYED_CACHE_CONTROL = 'private, no-cache';

export interface ConditionalGetOptions {
  db: Kysely<Database>;
  /** What else every answer depends on (the release, the base URL of links): a change makes every old tag stale. */
  salt: string;
}

/**
 * Conditional GET and HEAD for the routes that declare `validators`. The tag is worked out
 * before the handler, from versions read in one statement (services/versions), so a
 * revalidation that matches answers 304 without reading or shaping the answer. Matching runs
 * after the key check and the request's validation, as RFC 9110 §13.2.1 orders it. No
 * Last-Modified: one-second dates cannot tell two writes in the same second apart, and a
 * client revalidating by date could be told 304 after a write it was told had succeeded.
 */
export function useConditionalGet(app: FastifyInstance, { db, salt }: ConditionalGetOptions): void {
  app.decorateRequest('entityTag', null);
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const validators = request.routeOptions.config.validators;
    if (!validators || request.principal === null || (request.method !== 'GET' && request.method !== 'HEAD')) return;
    const versions = await readVersions(db, request.principal.keyId);
    if (versions === null) return;
    const parts = [salt, request.url, validators.perAccount ? String(request.principal.accountId) : '*'];
    for (const table of validators.tables) parts.push(versions[table]);
    const tag = entityTag(parts);
    request.entityTag = tag;
    reply.header('ETag', tag);
    reply.header('Cache-Control', KEYED_CACHE_CONTROL);
    reply.header('Vary', varyOn(reply.getHeader('vary'), 'Authorization'));
    // `*` needs to know the resource exists, which only the handler finds out (onSend below).
    if (noneMatchHits(request.headers['if-none-match'], tag, false)) return reply.code(304).send();
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.entityTag === null) return payload;
    if (reply.statusCode === 200 && noneMatchHits(request.headers['if-none-match'], request.entityTag, true)) {
      reply.code(304);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      return '';
    }
    // An error answer has no representation to validate.
    if (reply.statusCode !== 200 && reply.statusCode !== 304) {
      reply.removeHeader('etag');
      reply.removeHeader('cache-control');
      if (reply.getHeader('vary') === 'Authorization') reply.removeHeader('vary');
    }
    return payload;
  });
}
