import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../../errors/index.ts';
import type { Principal } from '../../services/api-keys/index.ts';
import { unauthorized } from './bearer-token.ts';

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

/** Contract §5 on a route of its own (the SDL where introspection is off): a valid credential (an API key, or an access token) or 401. */
export function requireKey(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  done(request.principal ? undefined : (request.authRefusal ?? unauthorized(request.headers.authorization)));
}
