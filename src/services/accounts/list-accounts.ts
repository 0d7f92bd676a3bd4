import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

export interface AccountSummary {
  name: string;
  createdAt: string;
  disabledAt: string | null;
  activeKeys: number;
}

/** Every account with its count of unrevoked keys, oldest first (the operator's view). */
export async function listAccounts(db: Kysely<Database>): Promise<AccountSummary[]> {
  const rows = await db
    .selectFrom('accounts')
    .leftJoin('api_keys', (join) => join.onRef('api_keys.account_id', '=', 'accounts.id').on('api_keys.revoked_at', 'is', null))
    .select((eb) => ['accounts.name', 'accounts.created_at', 'accounts.disabled_at', eb.fn.count<number>('api_keys.id').as('active_keys')])
    .groupBy(['accounts.id', 'accounts.name', 'accounts.created_at', 'accounts.disabled_at'])
    .orderBy('accounts.id')
    .execute();
  return rows.map((r) => ({ name: r.name, createdAt: r.created_at, disabledAt: r.disabled_at, activeKeys: Number(r.active_keys) }));
}
