import type { Kysely } from 'kysely';
import { dataVersionOf } from '../../db/data-version.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/types.ts';
import { API_KEY_PATTERN, hashApiKey } from './key-format.ts';

export interface Principal {
  accountId: number;
  keyId: number;
}

export interface KeyVerifier {
  /**
   * The key's owner, or null for a malformed, unknown or revoked key. Synchronous when
   * the key was verified recently and nothing has been written since.
   */
  verify(key: string): Principal | null | Promise<Principal | null>;
  /** Writes the pending `last_used_at` times. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface KeyVerifierOptions {
  /** How often `last_used_at` reaches the database: one write per interval, never one per request. */
  usageFlushMs?: number;
  /** The longest a verified key is trusted without reading its row again. */
  cacheTtlMs?: number;
  /** How many verified keys are remembered; the oldest goes first. */
  cacheSize?: number;
}

interface Verified {
  principal: Principal;
  /** The database's data version when the row was read: any write since ends the trust. */
  version: string;
  expires: number;
}

/** Where a key's verification is remembered: its hash, and the data version it was read at. */
interface CacheSlot {
  id: string;
  version: string;
}

// Every authenticated request runs this, so it is built once rather than per call. Found by
// the whole key's hash, not its public prefix: an unknown prefix and a known prefix with a wrong
// secret are then the same index miss, so timing cannot tell which prefixes exist.
const findKey = preparedQuery((db: Kysely<Database>, keyHash: string) =>
  db.selectFrom('api_keys').select(['id', 'account_id', 'revoked_at']).where('key_hash', '=', keyHash),
);

/**
 * Checks bearer keys. A key verified once is remembered by its SHA-256 (never the key
 * itself) until the database's data version moves: after any write the row is read again.
 * So a revocation made through this process refuses the very next request, one made by
 * another process (the CLI) within the data version's poll (250 ms), and the common case
 * skips the lookup and its awaits. Databases without a data version (see db/data-version)
 * cache nothing.
 */
export function createKeyVerifier(
  db: Kysely<Database>,
  { usageFlushMs = 10_000, cacheTtlMs = 60_000, cacheSize = 10_000 }: KeyVerifierOptions = {},
): KeyVerifier {
  // Epoch milliseconds per key id: formatting a date waits for the flush, off the request path.
  const lastUsed = new Map<number, number>();
  const dataVersion = dataVersionOf(db);
  const verified = new Map<string, Verified>();

  async function flush(): Promise<void> {
    if (lastUsed.size === 0) return;
    const batch = [...lastUsed];
    lastUsed.clear();
    await db.transaction().execute(async (trx) => {
      for (const [id, at] of batch) {
        await trx
          .updateTable('api_keys')
          .set({ last_used_at: new Date(at).toISOString() })
          .where('id', '=', id)
          .execute();
      }
    });
  }

  function remember({ id, version }: CacheSlot, principal: Principal, now: number): void {
    verified.delete(id);
    if (verified.size >= cacheSize) verified.delete(verified.keys().next().value as string);
    verified.set(id, { principal, version, expires: now + cacheTtlMs });
  }

  async function lookUp(hash: Buffer, slot: CacheSlot | null): Promise<Principal | null> {
    const [row] = await findKey(db, hash.toString('hex'));
    if (!row || row.revoked_at !== null) return null;
    const principal = { accountId: row.account_id, keyId: row.id };
    const now = Date.now();
    lastUsed.set(row.id, now);
    if (slot) remember(slot, principal, now);
    return principal;
  }

  const timer = setInterval(() => void flush().catch(() => undefined), usageFlushMs);
  timer.unref();

  return {
    verify(key) {
      if (!API_KEY_PATTERN.test(key)) return null;
      const hash = hashApiKey(key);
      // The version is read before the row, so a write that lands during the lookup still ends the trust.
      const slot = dataVersion ? { id: hash.toString('base64'), version: dataVersion() } : null;
      if (slot) {
        const hit = verified.get(slot.id);
        const now = Date.now();
        if (hit && hit.version === slot.version && hit.expires > now) {
          lastUsed.set(hit.principal.keyId, now);
          return hit.principal;
        }
      }
      return lookUp(hash, slot);
    },
    flush,
    async close() {
      clearInterval(timer);
      verified.clear();
      await flush();
    },
  };
}
