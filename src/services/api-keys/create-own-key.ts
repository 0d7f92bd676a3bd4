import type { Kysely } from 'kysely';
import { takeTurns } from '../../db/engine.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import type { Database } from '../../db/types.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { createValidator } from '../validation/validator.ts';
import { ACTIVE_KEYS_PER_ACCOUNT, newApiKeySchema } from './api-key-schema.ts';
import type { NewApiKeyInput, NewApiKeyWithSecret } from './api-key-schema.ts';
import { insertApiKey } from './create-api-key.ts';

const validateInput = createValidator<NewApiKeyInput>(newApiKeySchema);

/** Another key for the caller's own account, up to ACTIVE_KEYS_PER_ACCOUNT unrevoked ones. */
export async function createOwnKey(
  db: Kysely<Database>,
  accountId: number,
  input: unknown,
  naming?: FieldNaming,
): Promise<NewApiKeyWithSecret> {
  const { name = null } = validateInput(input, naming);
  const createdAt = new Date().toISOString();
  return inTransaction(db, async (trx) => {
    await takeTurns(trx, 'account-keys', accountId);
    return insertApiKey(trx, accountId, createdAt, { name, activeKeyCap: ACTIVE_KEYS_PER_ACCOUNT });
  });
}
