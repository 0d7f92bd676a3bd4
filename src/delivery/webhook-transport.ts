import { context, propagation } from '@opentelemetry/api';
import { DeliveryError } from './transport.ts';
import type { Transport } from './transport.ts';

export interface WebhookOptions {
  url: string;
  timeoutMs: number;
}

/**
 * POSTs the message record as JSON; any 2xx means delivered. Delivery is at least once
 * (a crash between the POST and recording it repeats the POST), so the message id is
 * sent as `Idempotency-Key` for the receiver to drop repeats.
 */
export function webhookTransport({ url, timeoutMs }: WebhookOptions): Transport {
  return {
    name: 'webhook',
    async deliver(message) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'idempotency-key': message.id,
        'user-agent': 'petstore-gateway',
      };
      // While the attempt is traced: its traceparent, so the receiver's spans join the delivery's trace.
      propagation.inject(context.active(), headers);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(message),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if (error instanceof Error && error.name === 'TimeoutError') throw new DeliveryError(`webhook timed out after ${timeoutMs} ms`);
        const code =
          error instanceof Error && error.cause instanceof Error && 'code' in error.cause ? String(error.cause.code) : 'network error';
        throw new DeliveryError(`webhook unreachable (${code})`);
      }
      // The body is not needed; cancelling frees the connection.
      await response.body?.cancel();
      if (!response.ok) throw new DeliveryError(`webhook answered HTTP ${response.status}`);
    },
  };
}
