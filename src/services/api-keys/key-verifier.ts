import type { Kysely } from 'kysely';
import type { DataVersion } from '../../db/data-version.ts';
import { keyByHash } from '../../db/queries/key-by-hash.ts';
import type { Database } from '../../db/types.ts';
import { API_KEY_PATTERN, hashApiKey } from './key-format.ts';
import { keyRefusal } from './key-states.ts';
import { keyUsage } from './key-usage.ts';
import { storedScopes } from '../access-tokens/scopes.ts';
import type { Principal } from '../principal.ts';

export type { Principal } from '../principal.ts';

/**
 * The key's owner; or null for a malformed, unknown or revoked key; or 'disabled' for a valid
 * key of a disabled account (only the key's holder can learn that, so it may be said).
 */
export type KeyVerdict = Principal | 'disabled' | null;

export interface KeyVerifier {
  /**
   * The verdict without reading anything: for a malformed key, or one verified recently with
   * nothing written since; undefined when only `verify` can tell. (Every request asks, so the
   * common case costs no promise.)
   */
  recall(key: string): KeyVerdict | undefined;
  /** The verdict, reading the key's row when it is not recalled. */
  verify(key: string): Promise<KeyVerdict>;
  /** Stops trusting a key that a read elsewhere found revoked or disabled: its next request reads its row again. */
  forget(keyId: number): void;
  close(): Promise<void>;
}

/** The longest a verified key is trusted without reading its row again. */
const CACHE_TTL_MS = 60_000;
/** How many verified keys are remembered; the oldest goes first. */
const CACHE_SIZE = 10_000;

interface Verified {
  principal: Principal;
  keyId: number;
  /** The database's data version when the row was read: any write since ends the trust. */
  version: string;
  expires: number;
}

/**
 * Checks bearer keys. A key verified once is remembered by its SHA-256 (never the key
 * itself) until the database's data version moves: after any write the row is read again.
 * So a revocation (or a disabled account) made through this process refuses the very next
 * request, one made by another process (the CLI, another instance) within the data version's
 * poll (250 ms), and the common case skips the lookup and its awaits.
 */
export interface KeyVerifierOptions {
  /** Told of every valid-looking key checked: answered from the cache (true) or read from the database. */
  onLookup?: (cached: boolean) => void;
}

export function createKeyVerifier(db: Kysely<Database>, dataVersion: DataVersion, { onLookup }: KeyVerifierOptions = {}): KeyVerifier {
  const usage = keyUsage(db);
  const verified = new Map<string, Verified>();

  function remember(slot: string, version: string, keyId: number, principal: Principal, now: number): void {
    verified.delete(slot);
    if (verified.size >= CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(slot, { principal, keyId, version, expires: now + CACHE_TTL_MS });
  }

  async function lookUp(slot: string, version: string): Promise<KeyVerdict> {
    // The slot is the hash in base64; the table keeps it in hex.
    const [row] = await keyByHash(db, Buffer.from(slot, 'base64').toString('hex'));
    if (!row) return null;
    const refusal = keyRefusal(row);
    // A revoked key and an unknown one are the same answer: only a disabled account is told apart.
    if (refusal) return refusal === 'disabled' ? 'disabled' : null;
    const principal: Principal = {
      accountId: row.account_id,
      keyId: row.id,
      token: null,
      scopes: storedScopes(row.scopes),
      bucket: `key:${row.id}`,
    };
    const now = Date.now();
    usage.record(row.id, now);
    remember(slot, version, row.id, principal, now);
    return principal;
  }

  function recalled(slot: string, version: string): Principal | undefined {
    const hit = verified.get(slot);
    const now = Date.now();
    if (!hit || hit.version !== version || hit.expires <= now) return undefined;
    usage.record(hit.keyId, now);
    onLookup?.(true);
    return hit.principal;
  }

  return {
    recall(key) {
      if (!API_KEY_PATTERN.test(key)) return null;
      return recalled(hashApiKey(key, 'base64'), dataVersion());
    },
    async verify(key) {
      if (!API_KEY_PATTERN.test(key)) return null;
      const slot = hashApiKey(key, 'base64');
      // The version is read before the row, so a write that lands during the lookup still ends the trust.
      const version = dataVersion();
      const hit = recalled(slot, version);
      if (hit) return hit;
      onLookup?.(false);
      return lookUp(slot, version);
    },
    forget(keyId) {
      for (const [slot, entry] of verified) if (entry.keyId === keyId) verified.delete(slot);
    },
    async close() {
      verified.clear();
      await usage.close();
    },
  };
}
