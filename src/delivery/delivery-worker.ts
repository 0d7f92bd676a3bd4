import { performance } from 'node:perf_hooks';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Link } from '@opentelemetry/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { claimDueMessage, retryDelay, settleMessage } from '../services/messages/index.ts';
import type { ClaimedMessage } from '../services/messages/index.ts';
import { TRACER_NAME } from '../telemetry/spans.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';
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
  metrics: Metrics;
  /** Each attempt a span, linked to the request that queued the message. */
  tracing: boolean;
}

/** A link to the span that queued the message, from the traceparent it kept. */
function linkTo(traceParent: string | null): Link[] {
  if (!traceParent) return [];
  const queuedBy = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }));
  return queuedBy ? [{ context: queuedBy }] : [];
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
  metrics,
  tracing,
}: DeliveryWorkerOptions): DeliveryWorker {
  const tracer = trace.getTracer(TRACER_NAME);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  /**
   * One attempt, traced as its own trace (a delivery is not part of the request that queued the
   * message, which ended long ago) with a link to that request's span.
   */
  function attempt(claimed: ClaimedMessage): Promise<void> {
    if (!tracing) return attemptOnce(claimed);
    const { message } = claimed;
    const span = tracer.startSpan(
      'deliver message',
      {
        kind: SpanKind.CONSUMER,
        root: true,
        links: linkTo(claimed.traceParent),
        attributes: {
          'messaging.system': 'petstore.outbox',
          'messaging.operation.type': 'process',
          'messaging.message.id': message.id,
          'petstore.delivery.attempt': message.attempts,
          'petstore.delivery.transport': transport.name,
        },
      },
      ROOT_CONTEXT,
    );
    return context.with(trace.setSpan(ROOT_CONTEXT, span), () => attemptOnce(claimed)).finally(() => span.end());
  }

  async function attemptOnce(claimed: ClaimedMessage): Promise<void> {
    const { message } = claimed;
    const began = performance.now();
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
    const seconds = (performance.now() - began) / 1000;
    metrics.delivery(transport.name, outcome.status === 'queued' ? 'retry' : outcome.status, message.attempts, seconds);
    if (outcome.status !== 'sent') trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR, message: outcome.reason });
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
