import type { FastifyReply } from 'fastify';
import { varyOn } from './entity-tag.ts';

/** Every keyed answer may be kept by the caller's own cache only, and must be revalidated before each use. */
export const KEYED_CACHE_CONTROL = 'private, no-cache';

/** An answer that carries a secret (a new API key), or a write's answer: no cache on the way may keep it. */
export const NO_STORE = 'no-store';

/**
 * The headers of a keyed answer that can be revalidated, on either face: its tag, kept by the
 * caller's own cache only and revalidated before each use, varying with the key (and with
 * whatever else `vary` names, as GraphQL's negotiated media type).
 */
export function validatorHeaders(reply: FastifyReply, tag: string, ...vary: string[]): FastifyReply {
  let varies = varyOn(reply.getHeader('vary'), 'Authorization');
  for (const field of vary) varies = varyOn(varies, field);
  return reply.header('ETag', tag).header('Cache-Control', KEYED_CACHE_CONTROL).header('Vary', varies);
}

/** What a request without Cache-Control asks: one object for all of them, most requests, rather than one each. */
const NOTHING_ASKED = Object.freeze({ runFresh: false, keepNothing: false });

/** RFC 9111 §5.2.1: a request's `no-cache` or `max-age=0` asks for an answer made now; `no-store` also that nothing of it be kept. */
export function freshnessAsked(cacheControl: string | undefined): Readonly<{ runFresh: boolean; keepNothing: boolean }> {
  if (cacheControl === undefined) return NOTHING_ASKED;
  return { runFresh: /no-cache|no-store|max-age=0/.test(cacheControl), keepNothing: cacheControl.includes('no-store') };
}
