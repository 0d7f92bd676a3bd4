import { Server as NetServer } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Stops accepting, lets every request already received finish, then closes the app (and its database). */
    drainAndClose(): Promise<void>;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Node 20's http `server.close()` also drops "idle" connections at once, and a connection
 * whose request is still on the wire counts as idle: closing that way resets clients.
 * So: stop listening at the net level, give bytes in transit a moment to become
 * requests, wait for requests in flight, and only then drop the idle sockets.
 */
export function useGracefulClose(app: FastifyInstance, { transitMs = 250, pollMs = 20 } = {}): void {
  // A request can end by response and by abort; it is counted out once.
  const open = new Set<FastifyRequest>();
  let draining = false;
  app.addHook('onRequest', async (request) => {
    open.add(request);
  });
  app.addHook('onResponse', async (request) => {
    open.delete(request);
  });
  app.addHook('onRequestAbort', async (request) => {
    open.delete(request);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    // Keep-alive clients reconnect elsewhere instead of sending more here.
    if (draining) reply.header('Connection', 'close');
    return payload;
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
