import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/index.ts';
import { sendErrorBody } from './error-handler.ts';

interface KnownPath {
  pattern: RegExp;
  /** As registered, e.g. /v1/pets/:petId: what the 405 message names. */
  url: string;
  methods: Set<string>;
}

function compile(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/**
 * The message quickstart is on its own base address (contract §4.4). A client generated from
 * the OpenAPI document with one base URL (…/v1) lands under /v1: say where it lives.
 */
/** The message quickstart is outside /v1 (contract): a client that looked for it inside is told where. */
function noRoute(method: string, path: string): AppError {
  return /^\/v1\/messages(\/|$)/.test(path)
    ? AppError.of('NOT_FOUND', 'noRouteOutsideV1', { method, path, outside: path.slice(3) })
    : AppError.of('NOT_FOUND', 'noRoute', { method, path });
}

/**
 * HTTP says a path that exists answers a method it lacks with 405 and `Allow`, not 404.
 * Fastify only routes the methods it knows and sends everything else to the not-found
 * handler, so that handler decides: any method (TRACE, PROPFIND, PURGE, …) on a known path
 * is a 405, and only an unknown path is a 404.
 */
export function useMethodNotAllowed(app: FastifyInstance): void {
  const known = new Map<string, KnownPath>();
  app.addHook('onRoute', (route) => {
    // A catch-all (CORS preflight's `OPTIONS *`) says nothing about which paths exist.
    if (route.url === '*' || route.url === '/*') return;
    const path = known.get(route.url) ?? { pattern: compile(route.url), url: route.url, methods: new Set<string>() };
    for (const method of [route.method].flat()) path.methods.add(method);
    known.set(route.url, path);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const match = [...known.values()].find((k) => k.pattern.test(path));
    if (!match) return sendErrorBody(reply, noRoute(request.method, path));
    const allow = [...match.methods].join(', ');
    return sendErrorBody(
      reply.header('Allow', allow),
      AppError.of('METHOD_NOT_ALLOWED', 'notOnRoute', { method: request.method, route: match.url, allow }),
    );
  });
}
