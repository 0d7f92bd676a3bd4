import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, unauthorized } from './bearer-token.ts';
import type { KeyVerdict, KeyVerifier, Principal } from '../../services/api-keys/index.ts';
import type { MaybePromise } from '../maybe-promise.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The key sent is valid but its account is disabled: the 401 says so. */
    accountDisabled: boolean;
  }
}

/**
 * Who is calling, from `Authorization: Bearer <key>`: null for no key or one that is not valid.
 * A promise only when the key had to be looked up.
 */
function identify(verifier: KeyVerifier, request: FastifyRequest): MaybePromise<void> {
  const token = bearerToken(request.headers.authorization);
  if (token === null) return;
  const known = verifier.recall(token);
  if (known !== undefined) return apply(request, known);
  return verifier.verify(token).then((verdict) => apply(request, verdict));
}

function apply(request: FastifyRequest, verdict: KeyVerdict): void {
  if (verdict === 'disabled') request.accountDisabled = true;
  else request.principal = verdict;
}

export interface IdentifyOptions {
  verifier: KeyVerifier;
  /** Counts the request once the caller is known. */
  rateLimit: (request: FastifyRequest, reply: FastifyReply) => MaybePromise<void>;
}

/**
 * The app-wide onRequest hook: identify the caller, then count the request, per key or per
 * address when there is no valid key. Every route is counted, unknown paths and 405s
 * included, so floods of bad keys or junk paths are limited like everything else; only
 * health probes and the pages' static assets are not. No await when the key was verified recently.
 */
export function identifyAndCount({
  verifier,
  rateLimit,
}: IdentifyOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    // Read once per request (routeOptions builds an object per read); the access line reads the flag.
    const { config } = request.routeOptions;
    if (config.probe) {
      request.probe = true;
      return;
    }
    if (config.asset) return;
    const pending = identify(verifier, request);
    if (pending) await pending;
    const counting = rateLimit(request, reply);
    if (counting) await counting;
  };
}

/** Contract §5 on every keyed route: a valid and unrevoked key or 401. (GraphQL decides per operation.) */
export function requireKey(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  done(request.principal ? undefined : unauthorized(request.headers.authorization, request.accountDisabled));
}
