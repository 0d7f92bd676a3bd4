import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

/** Whether any key could be used now: not revoked, of an account not disabled. */
export async function anyUsableKey(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select('api_keys.id')
    .where('api_keys.revoked_at', 'is', null)
    .where('accounts.disabled_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
