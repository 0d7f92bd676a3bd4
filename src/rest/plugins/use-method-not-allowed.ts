import type { FastifyInstance, HTTPMethods } from 'fastify';
import { AppError } from '../../errors/index.ts';
import { sendErrorBody } from './use-error-body.ts';

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Fastify answers 404 for a known path with the wrong method; HTTP says 405 with Allow.
 * Call first: it watches routes as they are added, then `close()` adds a 405 route per
 * API path for the methods nobody claimed.
 */
export function useMethodNotAllowed(app: FastifyInstance, { except = [] }: { except?: HTTPMethods[] } = {}): { close(): void } {
  const allowed = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    // Hidden routes (the docs' static assets) keep Fastify's plain 404.
    if (route.schema?.hide || (route.config as { methodNotAllowed?: boolean } | undefined)?.methodNotAllowed) return;
    const methods = allowed.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    allowed.set(route.url, methods);
  });
  return {
    close() {
      for (const [url, methods] of allowed) {
        const missing = METHODS.filter((m) => !methods.has(m) && !except.includes(m));
        if (missing.length === 0) continue;
        const allow = [...methods].join(', ');
        app.route({
          method: missing,
          url,
          config: { methodNotAllowed: true },
          schema: { hide: true },
          handler: (request, reply) =>
            sendErrorBody(reply.header('Allow', allow), new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${url}; use ${allow}.`)),
        });
      }
    },
  };
}
