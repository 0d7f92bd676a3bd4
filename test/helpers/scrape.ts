import type { FastifyInstance } from 'fastify';
import { listenForScrapes } from '../../src/telemetry/metrics-listener.ts';

const scraping = new WeakMap<FastifyInstance, Promise<string>>();

/** What an app of the test's own (another instance, with METRICS_PORT set) exposes to Prometheus now. */
export async function scrapeOf(app: FastifyInstance): Promise<string> {
  if (!app.metricsListener) throw new Error('metrics are off');
  let address = scraping.get(app);
  if (!address) scraping.set(app, (address = listenForScrapes(app.metricsListener, 0, '127.0.0.1')));
  return (await fetch(`http://${await address}/metrics`)).text();
}
