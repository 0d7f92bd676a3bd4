import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { ApiKey } from './api-key-schema.ts';
import { apiKeyColumns, toApiKey } from './to-api-key.ts';

/** The caller's own keys, revoked ones included, oldest first; never the secret, which is not stored. */
export async function listOwnKeys(db: Kysely<Database>, accountId: number): Promise<ApiKey[]> {
  const rows = await db.selectFrom('api_keys').select(apiKeyColumns).where('account_id', '=', accountId).orderBy('id').execute();
  return rows.map(toApiKey);
}
