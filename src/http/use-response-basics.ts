import { Server as NetServer } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Stops accepting, lets every request already received finish, then closes the app (and its database). */
    drainAndClose(): Promise<void>;
  }
}

// GraphiQL and Swagger UI run inline scripts and blob: workers (Monaco); everything
// else is this origin only, and no page may be framed.
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What every response gets, in one onRequest and one onSend hook (each hook costs on
 * the hot path): the request id, nosniff, a CSP with no framing on HTML pages, and
 * the bookkeeping for a graceful drain.
 *
 * Drain: Node 20's http `server.close()` also drops "idle" connections at once, and a
 * connection whose request is still on the wire counts as idle: closing that way resets
 * clients. So: stop listening at the net level, give bytes in transit a moment to become
 * requests, answer with `Connection: close`, wait for requests in flight, and only then
 * drop the idle sockets.
 */
export function useResponseBasics(app: FastifyInstance, { transitMs = 250, pollMs = 20 } = {}): void {
  // A request can end by response and by abort; it is counted out once.
  const open = new Set<FastifyRequest>();
  let draining = false;

  // Callback-style hooks: nothing here waits, and an async hook costs a promise and a tick per request.
  app.addHook('onRequest', (request, reply, done) => {
    open.add(request);
    reply.header('X-Request-Id', request.id);
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('Content-Security-Policy', PAGE_POLICY);
      reply.header('X-Frame-Options', 'DENY');
      reply.header('Referrer-Policy', 'no-referrer');
    }
    // Keep-alive clients reconnect elsewhere instead of sending more here.
    if (draining) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    open.delete(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    open.delete(request);
    done();
  });

  app.decorate('drainAndClose', async function drainAndClose(this: FastifyInstance) {
    draining = true;
    if (this.server.listening) NetServer.prototype.close.call(this.server);
    await sleep(transitMs);
    while (open.size > 0) await sleep(pollMs);
    this.server.closeIdleConnections();
    await this.close();
  });
}
