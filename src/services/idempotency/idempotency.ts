import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';

/** Keys are kept this long; a key older than this is new again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A first request still unfinished after this long is taken to have died with its process; a retry may run. */
export const IDEMPOTENCY_STALE_MS = 60 * 1000;
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What the first request produced, kept to give a retry: its status, its body, and where what it created lives. */
export interface StoredResult {
  status: number;
  body: string;
  resourcePath: string | null;
}

export type IdempotencyStart = { kind: 'first' } | { kind: 'replay'; result: StoredResult };

export function requestFingerprint(route: string, body: unknown): string {
  return createHash('sha256')
    .update(route)
    .update('\n')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

/**
 * Claims `key` for this request, or finds what it already answered. The claim is a row
 * with a unique key, so of two concurrent requests with one key only one runs.
 */
export async function startIdempotent(
  db: Kysely<Database>,
  accountId: number,
  key: string,
  fingerprint: string,
  now = new Date(),
): Promise<IdempotencyStart> {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new AppError('VALIDATION_FAILED', 'Idempotency-Key must be 1-255 visible ASCII characters.');
  }
  const at = now.toISOString();
  const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  const stale = new Date(now.getTime() - IDEMPOTENCY_STALE_MS).toISOString();
  // Expired keys (anyone's: this is where they are purged) and an unfinished first request with this key give way.
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) =>
      eb.or([
        eb('created_at', '<', expired),
        eb.and([eb('account_id', '=', accountId), eb('key', '=', key), eb('status_code', 'is', null), eb('created_at', '<', stale)]),
      ]),
    )
    .execute();
  // ON CONFLICT rather than catching the violation: on PostgreSQL a failed statement would abort a surrounding transaction.
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({ account_id: accountId, key, fingerprint, created_at: at })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (claimed) return { kind: 'first' };
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status_code', 'response_body', 'location'])
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return startIdempotent(db, accountId, key, fingerprint, now);
  if (row.fingerprint !== fingerprint) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  if (row.status_code === null || row.response_body === null) throw new AppError('IDEMPOTENCY_KEY_IN_USE');
  return { kind: 'replay', result: { status: row.status_code, body: row.response_body, resourcePath: row.location } };
}

/** Keeps a successful result for replays. */
export async function finishIdempotent(db: Kysely<Database>, accountId: number, key: string, result: StoredResult): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: result.status, response_body: result.body, location: result.resourcePath })
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .execute();
}

/** Releases the key after a failed request, so a corrected retry with the same key can run. */
export async function abandonIdempotent(db: Kysely<Database>, accountId: number, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('status_code', 'is', null)
    .execute();
}
