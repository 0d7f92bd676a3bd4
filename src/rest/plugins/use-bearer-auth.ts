import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../../http/bearer-token.ts';
import { AppError } from '../../errors/index.ts';
import type { KeyVerifier, Principal } from '../../services/api-keys/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** onRequest: who is calling, from `Authorization: Bearer <key>`; null for no key or one that is not valid. */
export function identify(verifier: KeyVerifier): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const token = bearerToken(request.headers.authorization);
    request.principal = token === null ? null : await verifier.verify(token);
  };
}

/** onRequest, after identify: contract §5, a valid and unrevoked key or 401. */
export async function requireKey(request: FastifyRequest): Promise<void> {
  if (request.principal) return;
  throw new AppError(
    'UNAUTHORIZED',
    bearerToken(request.headers.authorization) === null
      ? 'Missing API key: send Authorization: Bearer <API_KEY>.'
      : 'The API key is invalid or has been revoked.',
  );
}
