import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

/** Why a key that was valid no longer is. */
export type KeyRefusal = 'revoked' | 'disabled';

/**
 * Which of `keyIds` may no longer be used, and why: revoked (or gone), or its account disabled.
 * Keys still valid are absent from the answer. One query, however many keys.
 */
export async function refusedKeys(db: Kysely<Database>, keyIds: readonly number[]): Promise<Map<number, KeyRefusal>> {
  const refused = new Map<number, KeyRefusal>(keyIds.map((id) => [id, 'revoked']));
  if (keyIds.length === 0) return refused;
  const rows = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select(['api_keys.id', 'api_keys.revoked_at', 'accounts.disabled_at'])
    .where('api_keys.id', 'in', keyIds)
    .execute();
  for (const row of rows) {
    if (row.revoked_at !== null) continue;
    if (row.disabled_at !== null) refused.set(row.id, 'disabled');
    else refused.delete(row.id);
  }
  return refused;
}
