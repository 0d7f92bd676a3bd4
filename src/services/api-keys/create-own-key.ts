import type { Kysely } from 'kysely';
import { takeTurns } from '../../db/engine.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { SCOPES } from '../access-tokens/scopes.ts';
import { permits } from '../principal.ts';
import type { Principal } from '../principal.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { createValidator } from '../validation/validator.ts';
import { ACTIVE_KEYS_PER_ACCOUNT, newApiKeySchema } from './api-key-schema.ts';
import type { NewApiKeyInput, NewApiKeyWithSecret } from './api-key-schema.ts';
import { insertApiKey } from './create-api-key.ts';

const validateInput = createValidator<NewApiKeyInput>(newApiKeySchema);

/**
 * Another key for the caller's own account, up to ACTIVE_KEYS_PER_ACCOUNT unrevoked ones. A key
 * may do what the credential making it may (its scopes, the default) or less, never more: a
 * token allowed to manage keys cannot mint a key allowed to write (INSUFFICIENT_SCOPE).
 */
export async function createOwnKey(
  db: Kysely<Database>,
  principal: Principal,
  input: unknown,
  naming?: FieldNaming,
): Promise<NewApiKeyWithSecret> {
  const { name = null, scopes: asked } = validateInput(input, naming);
  const lacking = asked?.find((scope) => !permits(principal, scope));
  if (lacking) throw AppError.of('INSUFFICIENT_SCOPE', 'missing', { scope: lacking });
  const scopes = asked ?? (principal.scopes === null ? null : SCOPES.filter((scope) => permits(principal, scope)));
  const createdAt = new Date().toISOString();
  return inTransaction(db, async (trx) => {
    await takeTurns(trx, 'account-keys', principal.accountId);
    return insertApiKey(trx, principal.accountId, createdAt, { name, scopes, activeKeyCap: ACTIVE_KEYS_PER_ACCOUNT });
  });
}
