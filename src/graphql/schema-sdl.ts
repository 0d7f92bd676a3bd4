import type { FastifyInstance } from 'fastify';
import { requireKey } from '../http/auth/use-authentication.ts';
import { precompressed } from '../http/caching/precompressed.ts';

/**
 * The schema the server runs, as SDL, at a stable address (`<endpoint>/schema.graphql`) for
 * code generators and gateways: every type with its descriptions, and the directives as applied
 * (@cost, @listSize, @deprecated) with their definitions (@defer, @stream), which introspection
 * would not show (printSchemaWithDirectives, printed once by the face). It needs a valid credential where introspection is off (in
 * production), as introspection would; where it is on, it is as open as introspection.
 */
export function mountSchemaSdl(app: FastifyInstance, url: string, sdl: string, { open }: { open: boolean }): void {
  const send = precompressed(sdl, 'application/graphql; charset=utf-8');
  app.get(url, { schema: { hide: true }, ...(open ? {} : { preHandler: requireKey }) }, (req, reply) =>
    send(req, reply, open ? 'no-cache' : 'private, no-cache'),
  );
}
