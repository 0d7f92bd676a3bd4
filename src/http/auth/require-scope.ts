import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/index.ts';
import type { Scope } from '../../services/access-tokens/scopes.ts';
import { permits } from '../../services/principal.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a keyed route needs, where it is not its method's (GET and HEAD read; the rest write). */
    scope?: Scope;
  }
}

const READING = new Set(['GET', 'HEAD']);

/**
 * After the credential is known: 403 INSUFFICIENT_SCOPE (with RFC 6750's insufficient_scope
 * challenge, naming the scope) for a credential that may not do what the route does. A key or
 * token without scopes may do everything, and costs nothing here.
 */
export function requireScope(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  const { principal } = request;
  if (principal === null || principal.scopes === null) return done();
  const scope = request.routeOptions.config.scope ?? (READING.has(request.method) ? 'petstore:read' : 'petstore:write');
  done(permits(principal, scope) ? undefined : AppError.of('INSUFFICIENT_SCOPE', 'missing', { scope }));
}
