import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

/** How often `last_used_at` reaches the database: one write per interval, never one per request. */
export const KEY_USAGE_FLUSH_MS = 10_000;

export interface KeyUsage {
  /** Notes that the key was used now; written with the next batch. */
  record(keyId: number, at: number): void;
  /** Stops the timer and writes what is pending; if the database cannot take it, the batch is dropped, not the shutdown. */
  close(): Promise<void>;
}

/**
 * `last_used_at`, collected in memory and written in one transaction every KEY_USAGE_FLUSH_MS and on
 * close. A batch whose write fails is kept (later uses of a key win) for the next flush.
 */
export function keyUsage(db: Kysely<Database>): KeyUsage {
  // Epoch milliseconds per key id: formatting a date waits for the flush, off the request path.
  let pending = new Map<number, number>();

  async function flush(): Promise<void> {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await db.transaction().execute(async (trx) => {
        for (const [id, at] of batch) {
          await trx
            .updateTable('api_keys')
            .set({ last_used_at: new Date(at).toISOString() })
            .where('id', '=', id)
            .execute();
        }
      });
    } catch (error) {
      for (const [id, at] of batch) if (!pending.has(id)) pending.set(id, at);
      throw error;
    }
  }

  const timer = setInterval(() => void flush().catch(() => undefined), KEY_USAGE_FLUSH_MS);
  timer.unref();

  return {
    record(keyId, at) {
      pending.set(keyId, at);
    },
    async close() {
      clearInterval(timer);
      // last_used_at is bookkeeping: a server shutting down while its database is away still shuts down.
      await flush().catch(() => undefined);
    },
  };
}
