import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { parseId } from '../validation/parse-id.ts';
import type { ApiKey } from './api-key-schema.ts';
import { apiKeyColumns, toApiKey } from './to-api-key.ts';

/**
 * Revokes one of the caller's keys, the calling key included: the verifier's trust ends with
 * the write, so that key is refused from the next request on. Another account's key is "not
 * found", as if it did not exist. Revoking a revoked key changes nothing and answers it as it is.
 */
export async function revokeOwnKey(db: Kysely<Database>, accountId: number, keyId: number | string, naming?: FieldNaming): Promise<ApiKey> {
  const id = parseId(keyId, 'keyId', naming);
  // One statement in the common case; the read is only for a key already revoked, or not ours.
  const row =
    (await db
      .updateTable('api_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .returning(apiKeyColumns)
      .executeTakeFirst()) ??
    (await db.selectFrom('api_keys').select(apiKeyColumns).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst());
  if (!row) throw AppError.of('API_KEY_NOT_FOUND', 'byId', { id });
  return toApiKey(row);
}
