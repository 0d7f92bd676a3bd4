import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DeliveryConfig } from '../config/load-config.ts';
import type { Database } from '../db/types.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';
import { startDeliveryWorker } from './delivery-worker.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { logTransport } from './log-transport.ts';
import { webhookTransport } from './webhook-transport.ts';

/** The configured worker (webhook transport when MESSAGE_WEBHOOK_URL is set, else the log), or null where delivery is off. */
export function startDelivery(
  db: Kysely<Database>,
  config: DeliveryConfig,
  log: FastifyBaseLogger,
  { metrics, tracing }: { metrics: Metrics; tracing: boolean },
): DeliveryWorker | null {
  if (!config.enabled) return null;
  return startDeliveryWorker({
    db,
    log,
    transport: config.webhookUrl ? webhookTransport({ url: config.webhookUrl, timeoutMs: config.webhookTimeoutMs }) : logTransport(log),
    pollMs: config.pollMs,
    leaseMs: config.leaseMs,
    maxAttempts: config.maxAttempts,
    retryBaseMs: config.retryBaseMs,
    metrics,
    tracing,
  });
}
