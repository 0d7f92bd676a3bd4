import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

export interface OutboxBacklog {
  /** Messages waiting to be delivered (status queued), retries included. */
  queued: number;
  /** Seconds since the oldest of them was sent; 0 when none waits. */
  oldestAgeSeconds: number;
}

/** What the delivery workers still have to do: one indexed read over the queued messages. */
export async function outboxBacklog(db: Kysely<Database>, now = Date.now()): Promise<OutboxBacklog> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => [eb.fn.countAll<number | string>().as('queued'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'queued')
    .executeTakeFirst();
  const oldest = row?.oldest ? Date.parse(row.oldest) : now;
  return { queued: Number(row?.queued ?? 0), oldestAgeSeconds: Math.max(0, (now - oldest) / 1000) };
}
