import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

/** Why a key that was valid no longer is. */
export type KeyRefusal = 'revoked' | 'disabled';

/** The one rule, for the verifier and for open streams alike: why a key's row refuses it, or null while it works. */
export function keyRefusal(row: { revoked_at: string | null; disabled_at: string | null }): KeyRefusal | null {
  if (row.revoked_at !== null) return 'revoked';
  return row.disabled_at !== null ? 'disabled' : null;
}

/**
 * Which of `keyIds` may no longer be used, and why: revoked (or gone), or its account disabled.
 * Keys still valid are absent from the answer. One query, however many keys.
 */
export async function refusedKeys(db: Kysely<Database>, keyIds: readonly number[]): Promise<Map<number, KeyRefusal>> {
  const refused = new Map<number, KeyRefusal>();
  if (keyIds.length === 0) return refused;
  const rows = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select(['api_keys.id', 'api_keys.revoked_at', 'accounts.disabled_at'])
    .where('api_keys.id', 'in', keyIds)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of keyIds) {
    const row = byId.get(id);
    // A key gone from the table is as good as revoked.
    const why = row ? keyRefusal(row) : 'revoked';
    if (why) refused.set(id, why);
  }
  return refused;
}
