import { Server as NetServer } from 'node:net';
import type { Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Stops accepting, lets every request already received finish, then closes the app (and its database). */
    drainAndClose(): Promise<void>;
    /** True from the moment draining starts: /readyz answers 503 so balancers stop sending here. */
    readonly draining: boolean;
    /** Ends long-lived responses (event streams) when the listener closes, so the drain does not wait for them forever. */
    onListenerClosed(end: () => void): void;
  }
}

/** How long bytes already on the wire get to become requests once the listener is closed. */
const TRANSIT_MS = 250;

export interface GracefulDrainOptions {
  /** How long to keep serving, with /readyz at 503, before the listener closes (SHUTDOWN_DELAY_MS). */
  delayMs: number;
}

/**
 * Graceful drain in two steps. First the server says it is leaving (/readyz 503, every response
 * `Connection: close`) while it still serves, for `delayMs`: time for a balancer's health check
 * to take it out of rotation, so nothing the balancer sends in that time is refused. Then it
 * stops listening and finishes what it has.
 *
 * Node 20's `server.close()` also drops "idle" connections at once, and a connection whose
 * request is still arriving counts as idle: closing that way resets clients. So: stop listening
 * at the net level, give bytes in transit a moment to become requests, wait until every
 * response has ended, and only then drop the idle sockets.
 *
 * Responses are tracked on node's `request` event and their `close` event, which fires once
 * however a response ends (sent, aborted, or its socket ended by a parse error on the bytes
 * after it), so nothing can stay counted. Fastify's onResponse and onRequestAbort hooks miss
 * that last case.
 *
 * A connection that never sent a byte is neither idle nor busy to node: `closeIdleConnections`
 * leaves it, and closing the server waits until its client gives up. Clients open such spares
 * (Node 22+'s fetch, as Apollo Client uses it, kept two open 70 s after its last request), so
 * once the listener is closed they are ended: nothing was asked on them.
 */
export function useGracefulDrain(app: FastifyInstance, { delayMs }: GracefulDrainOptions): void {
  const open = new Set<ServerResponse>();
  const enders: (() => void)[] = [];
  let draining = false;
  let drained: (() => void) | null = null;
  const unused = new Set<Socket>();

  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  // A WebSocket's connection asked for its upgrade: graphql-ws closes it with its own code.
  app.server.prependListener('upgrade', (req: { socket: Socket }) => unused.delete(req.socket));
  app.server.prependListener('request', (req, res: ServerResponse) => {
    unused.delete(req.socket);
    open.add(res);
    // Keep-alive clients reconnect elsewhere instead of sending more here.
    if (draining) res.shouldKeepAlive = false;
    // One listener for every response ('close' fires once), not a closure and a once-wrapper each.
    res.on('close', closed);
  });
  function closed(this: ServerResponse): void {
    open.delete(this);
    if (open.size === 0) drained?.();
  }

  app.decorate('draining', {
    getter: () => draining,
  });
  app.decorate('onListenerClosed', (end: () => void) => {
    enders.push(end);
  });
  // Fastify's close (also the end of drainAndClose) stops listening before its onClose hooks and
  // waits for every connection; connections that never asked anything are ended first.
  app.addHook('preClose', (done) => {
    for (const socket of unused) socket.destroy();
    done();
  });
  app.decorate('drainAndClose', async function drainAndClose(this: FastifyInstance) {
    draining = true;
    for (const res of open) if (!res.headersSent) res.shouldKeepAlive = false;
    if (delayMs > 0 && this.server.listening) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (this.server.listening) NetServer.prototype.close.call(this.server);
    // Streams end now, cleanly: their clients reconnect, and reach an instance still listening.
    for (const end of enders) end();
    await new Promise((resolve) => setTimeout(resolve, TRANSIT_MS));
    if (open.size > 0) await new Promise<void>((resolve) => (drained = resolve));
    this.server.closeIdleConnections();
    await this.close();
  });
}
