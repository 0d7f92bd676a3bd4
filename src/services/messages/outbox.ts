import { sql } from 'kysely';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { databaseTime, skipLockedRows } from '../../db/engine.ts';
import type { Database } from '../../db/types.ts';
import type { Message } from './message-schema.ts';
import { messageColumns, toMessage } from './to-message.ts';

/** A message a worker holds. Its attempt number is the fence later writes must match. */
export interface ClaimedMessage {
  message: Message;
  /** The traceparent of the request that queued it (null untraced): its delivery's span links there. */
  traceParent: string | null;
}

/**
 * Takes the next due message for `leaseMs`. One UPDATE that re-checks the claim in its own
 * WHERE, so two workers, in one process or several, never hold the same message; on
 * PostgreSQL the due row is picked `for update skip locked`, so concurrent workers take
 * different messages instead of queueing for one. Times come from the database's clock, so
 * hosts whose clocks differ agree on when a lease ends. A worker that dies leaves its lease
 * to expire, and the message is taken again.
 */
export async function claimDueMessage(db: Kysely<Database>, leaseMs: number): Promise<ClaimedMessage | null> {
  const now = databaseTime(db);
  const free = (eb: ExpressionBuilder<Database, 'messages'>) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]);
  const row = await db
    .updateTable('messages')
    .set({ claimed_until: databaseTime(db, leaseMs), attempts: sql<number>`attempts + 1`, updated_at: now })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('messages')
        .select('id')
        .where('status', '=', 'queued')
        .where('next_attempt_at', '<=', now)
        .where(free)
        .orderBy('next_attempt_at')
        .limit(1)
        .$if(skipLockedRows(db), (query) => query.forUpdate().skipLocked()),
    )
    .where('status', '=', 'queued')
    .where(free)
    .returning([...messageColumns, 'trace_parent'])
    .executeTakeFirst();
  return row ? { message: toMessage(row), traceParent: row.trace_parent } : null;
}

type Outcome = { status: 'sent' } | { status: 'failed'; reason: string } | { status: 'queued'; reason: string; retryInMs: number };

/**
 * Records how an attempt ended; false when another worker has taken the message since. Every
 * claim counts an attempt, so the attempt number this worker claimed is the fence: a later
 * claim has a higher one, and this write then matches nothing.
 */
export async function settleMessage(db: Kysely<Database>, claimed: ClaimedMessage, outcome: Outcome): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({
      status: outcome.status,
      updated_at: databaseTime(db),
      claimed_until: null,
      failure_reason: outcome.status === 'sent' ? null : outcome.reason,
      next_attempt_at: outcome.status === 'queued' ? databaseTime(db, outcome.retryInMs) : null,
    })
    .where('id', '=', claimed.message.id)
    .where('status', '=', 'queued')
    .where('attempts', '=', claimed.message.attempts)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Exponential backoff: base, 2×base, 4×base … capped at `maxMs`. */
export function retryDelay(attempts: number, baseMs: number, maxMs = 5 * 60_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}
