import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { createApiKey } from './create-api-key.ts';
import type { CreatedApiKey } from './create-api-key.ts';

/** On a database with no accounts yet, creates account `default` with one key, so a newcomer can call the API at once. */
export async function ensureFirstKey(db: Kysely<Database>): Promise<CreatedApiKey | null> {
  const existing = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  return existing ? null : createApiKey(db, 'default');
}
