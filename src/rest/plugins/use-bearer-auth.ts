import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, unauthorized } from '../../http/bearer-token.ts';
import type { KeyVerifier, Principal } from '../../services/api-keys/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Who is calling, from `Authorization: Bearer <key>`: null for no key or one that is not valid. A promise only when the key had to be looked up. */
function identify(verifier: KeyVerifier, request: FastifyRequest): void | Promise<void> {
  const token = bearerToken(request.headers.authorization);
  const found = token === null ? null : verifier.verify(token);
  if (found instanceof Promise) {
    return found.then((principal) => {
      request.principal = principal;
    });
  }
  request.principal = found;
}

/** Contract §5: a valid and unrevoked key or 401. */
function requireKey(request: FastifyRequest): void {
  if (!request.principal) throw unauthorized(request.headers.authorization);
}

export interface AuthenticateOptions {
  verifier: KeyVerifier;
  /** Counts the request once the caller is known. */
  rateLimit: (request: FastifyRequest, reply: FastifyReply) => void;
  /** false where the route decides per operation (GraphQL lets introspection through). */
  required: boolean;
}

/**
 * The onRequest hook of every keyed route, in this order: identify the caller, count the
 * request (per address when there is no valid key, so floods of bad keys are limited before
 * their 401), then require the key. One hook, and no await when the key was verified recently.
 */
export function authenticate({ verifier, rateLimit, required }: AuthenticateOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    const pending = identify(verifier, request);
    if (pending) await pending;
    rateLimit(request, reply);
    if (required) requireKey(request);
  };
}
