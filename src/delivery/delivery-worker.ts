import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { claimDueMessage, retryDelay, settleMessage } from '../services/messages/index.ts';
import type { ClaimedMessage } from '../services/messages/index.ts';
import { DeliveryError } from './transport.ts';
import type { Transport } from './transport.ts';

/** The timings come from the configuration (load-config.ts), which holds their defaults. */
export interface DeliveryWorkerOptions {
  db: Kysely<Database>;
  transport: Transport;
  log: FastifyBaseLogger;
  /** How often an idle worker looks for due messages. */
  pollMs: number;
  /** How long a claimed message is this worker's; must outlast one delivery attempt. */
  leaseMs: number;
  /** Attempts before a message is `failed`. */
  maxAttempts: number;
  /** First retry delay; doubles per attempt. */
  retryBaseMs: number;
}

export interface DeliveryWorker {
  /** Stops taking messages and waits for the attempt in flight to be recorded. */
  stop(): Promise<void>;
}

/** Delivers queued messages, one at a time, from the outbox in the database. */
export function startDeliveryWorker({
  db,
  transport,
  log,
  pollMs,
  leaseMs,
  maxAttempts,
  retryBaseMs,
}: DeliveryWorkerOptions): DeliveryWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function attempt(claimed: ClaimedMessage): Promise<void> {
    const { message } = claimed;
    let outcome: Parameters<typeof settleMessage>[2];
    try {
      await transport.deliver(message);
      outcome = { status: 'sent' };
    } catch (error) {
      const reason = error instanceof DeliveryError ? error.message : 'unexpected transport error';
      if (!(error instanceof DeliveryError)) log.error({ err: error, messageId: message.id }, 'transport failed unexpectedly');
      outcome =
        message.attempts >= maxAttempts
          ? { status: 'failed', reason: `${reason} (gave up after ${message.attempts} attempts)` }
          : { status: 'queued', reason, retryInMs: retryDelay(message.attempts, retryBaseMs) };
    }
    if (!(await settleMessage(db, claimed, outcome))) {
      log.warn({ messageId: message.id }, 'lease lost before the attempt was recorded; another worker has the message');
    } else {
      log.debug(
        { messageId: message.id, status: outcome.status, attempts: message.attempts, transport: transport.name },
        'delivery attempt',
      );
    }
  }

  async function drain(): Promise<void> {
    while (!stopped) {
      const claimed = await claimDueMessage(db, leaseMs);
      if (!claimed) return;
      await attempt(claimed);
    }
  }

  function tick(): void {
    running = drain()
      .catch((error: unknown) => log.error({ err: error }, 'delivery worker pass failed; retrying on the next poll'))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  }
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
