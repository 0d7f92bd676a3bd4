import type { OperationTypeNode } from 'graphql';
import { multipartIncrements } from './multipart-increments.ts';
import { multipartSubscription } from './multipart-subscription.ts';
import type { StreamType } from './negotiate.ts';
import type { Events } from './run-graphql.ts';
import { sseEvents } from './sse-events.ts';

/**
 * What the pipeline's events become on the wire, by the stream type the client takes: GraphQL
 * over SSE; or multipart/mixed, in Apollo's subscription protocol for a subscription, in the
 * incremental delivery format for a query's increments (and for a refusal before the operation was
 * known). The framing only: what runs and what it records is the pipeline's (run-graphql.ts).
 */
export function streamAnswer(type: StreamType, kind: OperationTypeNode | null, events: Events): Response {
  if (type === 'text/event-stream') return sseEvents(events);
  return kind === 'subscription' ? multipartSubscription(events) : multipartIncrements(events);
}
