import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

export interface ApiKeySummary {
  id: number;
  prefix: string;
  account: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Everything about each key except the key, which is not stored. */
export async function listApiKeys(db: Kysely<Database>): Promise<ApiKeySummary[]> {
  const rows = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select([
      'api_keys.id',
      'api_keys.prefix',
      'accounts.name as account',
      'api_keys.created_at',
      'api_keys.last_used_at',
      'api_keys.revoked_at',
    ])
    .orderBy('api_keys.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    prefix: r.prefix,
    account: r.account,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  }));
}
