import type { FastifyInstance } from 'fastify';
import { bearerToken } from '../../http/bearer-token.ts';
import { AppError } from '../../errors/index.ts';
import type { KeyVerifier, Principal } from '../../services/api-keys/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Every route registered in `scope` after this call requires a valid, unrevoked key. */
export function useBearerAuth(scope: FastifyInstance, verifier: KeyVerifier): void {
  scope.addHook('onRequest', async (request) => {
    const token = bearerToken(request.headers.authorization);
    const principal = token === null ? null : await verifier.verify(token);
    if (!principal) {
      throw new AppError(
        'UNAUTHORIZED',
        token === null ? 'Missing API key: send Authorization: Bearer <API_KEY>.' : 'The API key is invalid or has been revoked.',
      );
    }
    request.principal = principal;
  });
}
