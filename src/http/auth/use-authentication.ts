import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/index.ts';
import type { Principal } from '../../services/api-keys/index.ts';
import { whenReady } from '../maybe-promise.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import { unauthorized } from './bearer-token.ts';
import { authenticate } from './credentials.ts';
import type { Credentials } from './credentials.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /**
     * Why the credential sent was refused, where more can be said than `unauthorized(header)`
     * does (a disabled account, an access token refused, its issuer unreachable).
     */
    authRefusal: AppError | null;
    /** The edge's refusal kept for a route that answers it once it has read its request (route-config.ts, `refusedOnceRead`). */
    edgeRefusal: AppError | null;
  }
}

/**
 * Who is calling, from `Authorization: Bearer <key or token>`: null for none, or one that is not
 * valid. A promise only when the credential had to be looked up.
 */
function identify(credentials: Credentials, request: FastifyRequest, admit: () => Promise<void>): MaybePromise<void> {
  return whenReady(authenticate(credentials, request.headers.authorization, admit), (verdict) => {
    if (verdict instanceof AppError) request.authRefusal = verdict;
    else request.principal = verdict;
  });
}

export interface IdentifyOptions {
  credentials: Credentials;
  /** Counts the request once the caller is known. */
  rateLimit: (request: FastifyRequest, reply: FastifyReply) => MaybePromise<void>;
  /** Charges an account made for a token's new subject, as a sign-up is (throws RATE_LIMITED). */
  newAccount: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

/**
 * The app-wide onRequest hook: identify the caller, then count the request, per key or per
 * address when there is no valid key. Every route is counted, unknown paths and 405s
 * included, so floods of bad keys or junk paths are limited like everything else; only
 * health probes and the pages' static assets are not. No await when the key was verified recently.
 */
export function identifyAndCount({
  credentials,
  rateLimit,
  newAccount,
}: IdentifyOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    // Read once per request (routeOptions builds an object per read); the access line reads the flag.
    const { config } = request.routeOptions;
    if (config.probe) {
      request.probe = true;
      return;
    }
    if (config.asset) return;
    const pending = identify(credentials, request, () => newAccount(request, reply));
    if (pending) await pending;
    const counting = rateLimit(request, reply);
    if (!counting) return;
    if (!config.refusedOnceRead) return counting;
    try {
      await counting;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      request.edgeRefusal = error;
    }
  };
}

/** Contract §5 on every keyed route: a valid credential (an API key, or an access token) or 401. (GraphQL decides per operation.) */
export function requireKey(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  done(request.principal ? undefined : (request.authRefusal ?? unauthorized(request.headers.authorization)));
}
