import { sql } from 'kysely';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Message } from './message-schema.ts';
import { messageColumns, toMessage } from './to-message.ts';

/** A message a worker holds: its lease is the fence that later writes must match. */
export interface ClaimedMessage {
  message: Message;
  lease: string;
}

/**
 * Takes the next due message for `leaseMs`. One UPDATE that re-checks the lease in its
 * own WHERE: two workers, in one process or two, can never hold the same message. A
 * worker that dies leaves the lease to expire, and the message is taken again.
 */
export async function claimDueMessage(db: Kysely<Database>, leaseMs: number, now = new Date()): Promise<ClaimedMessage | null> {
  const at = now.toISOString();
  const lease = new Date(now.getTime() + leaseMs).toISOString();
  const free = (eb: ExpressionBuilder<Database, 'messages'>) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]);
  const row = await db
    .updateTable('messages')
    .set({ claimed_until: lease, attempts: sql<number>`attempts + 1`, updated_at: at })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('messages')
        .select('id')
        .where('status', '=', 'queued')
        .where('next_attempt_at', '<=', at)
        .where(free)
        .orderBy('next_attempt_at')
        .limit(1),
    )
    .where('status', '=', 'queued')
    .where(free)
    .returning(messageColumns)
    .executeTakeFirst();
  return row ? { message: toMessage(row), lease } : null;
}

type Outcome = { status: 'sent' } | { status: 'failed'; reason: string } | { status: 'queued'; reason: string; retryAt: Date };

/** Records how an attempt ended; false when the lease was lost (another worker owns the message now). */
export async function settleMessage(db: Kysely<Database>, claimed: ClaimedMessage, outcome: Outcome, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({
      status: outcome.status,
      updated_at: now.toISOString(),
      claimed_until: null,
      failure_reason: outcome.status === 'sent' ? null : outcome.reason,
      next_attempt_at: outcome.status === 'queued' ? outcome.retryAt.toISOString() : null,
    })
    .where('id', '=', claimed.message.id)
    .where('claimed_until', '=', claimed.lease)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Exponential backoff: base, 2×base, 4×base … capped at `maxMs`. */
export function retryDelay(attempts: number, baseMs: number, maxMs = 5 * 60_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}
