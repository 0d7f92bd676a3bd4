import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Server } from 'node:http';
import { boundAddress } from '../util/bound-address.ts';
import type { Metrics } from './metrics-types.ts';

/** The shortest time between two renderings of the exposition, however many scrapes arrive. */
export const MIN_RENDER_INTERVAL_MS = 100;

/**
 * `GET /metrics` on a listener of its own (METRICS_PORT), never the public port: what the
 * metrics tell (routes, operation names, error rates, the outbox) is for the operator, and a
 * scrape must not share the public port's limits and keys. Built here, opened by server.ts.
 */
export function metricsListener(metrics: Metrics): Server {
  // A rendering runs on the event loop the API needs: at most one per MIN_RENDER_INTERVAL_MS.
  // Every scrape that arrives before the next rendering starts shares it, and that rendering
  // starts after they arrived, so each still sees the values of its own moment.
  let next: Promise<string> | null = null;
  let renderedAt = -Infinity;
  const render = () =>
    (next ??= new Promise((resolve) => setTimeout(resolve, Math.max(0, renderedAt + MIN_RENDER_INTERVAL_MS - performance.now())))
      .then(() => metrics.text())
      .finally(() => {
        renderedAt = performance.now();
        next = null;
      }));
  return createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics.\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed.\n');
      return;
    }
    render().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        // A gauge whose source failed (the database away): Prometheus marks the scrape failed.
        response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`Metrics unavailable: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    );
  });
}

/** Opens the listener; resolves with the address bound (`host:port`). */
export function listenForScrapes(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(boundAddress(server));
    });
  });
}

/** Closes the listener and its keep-alive connections (Prometheus keeps one open per target). */
export function stopScrapes(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
