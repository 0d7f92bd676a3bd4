import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/index.ts';
import type { KeyVerifier, Principal } from '../../services/api-keys/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Contract §5: `Authorization: Bearer <API_KEY>`; the scheme is case-insensitive (RFC 9110 §11.1). */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer +([^ ]+) *$/i.exec(header);
  return match?.[1] ?? null;
}

/** Every route registered in `scope` after this call requires a valid, unrevoked key. */
export function useBearerAuth(scope: FastifyInstance, verifier: KeyVerifier): void {
  scope.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
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
