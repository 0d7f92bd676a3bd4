import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { API_KEY_PATTERN, hashApiKey, keyPrefix } from './key-format.ts';

export interface Principal {
  accountId: number;
  keyId: number;
}

export interface KeyVerifier {
  /** The key's owner, or null for a malformed, unknown or revoked key. */
  verify(key: string): Promise<Principal | null>;
  /** Writes the pending `last_used_at` times. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface KeyVerifierOptions {
  /** How often `last_used_at` reaches the database: one write per interval, never one per request. */
  usageFlushMs?: number;
}

export function createKeyVerifier(db: Kysely<Database>, { usageFlushMs = 10_000 }: KeyVerifierOptions = {}): KeyVerifier {
  // Epoch milliseconds per key id: formatting a date waits for the flush, off the request path.
  const lastUsed = new Map<number, number>();

  async function flush(): Promise<void> {
    if (lastUsed.size === 0) return;
    const batch = [...lastUsed];
    lastUsed.clear();
    await db.transaction().execute(async (trx) => {
      for (const [id, at] of batch) {
        await trx.updateTable('api_keys').set({ last_used_at: new Date(at).toISOString() }).where('id', '=', id).execute();
      }
    });
  }

  const timer = setInterval(() => void flush().catch(() => undefined), usageFlushMs);
  timer.unref();

  return {
    async verify(key) {
      if (!API_KEY_PATTERN.test(key)) return null;
      const row = await db
        .selectFrom('api_keys')
        .select(['id', 'account_id', 'key_hash', 'revoked_at'])
        .where('prefix', '=', keyPrefix(key))
        .executeTakeFirst();
      if (!row || row.revoked_at !== null) return null;
      // The prefix only finds the row; the secret part is checked in constant time.
      if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), hashApiKey(key))) return null;
      lastUsed.set(row.id, Date.now());
      return { accountId: row.account_id, keyId: row.id };
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
