import type { Kysely } from 'kysely';
import { inTransaction } from '../../db/in-transaction.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { insertApiKey } from '../api-keys/create-api-key.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { createValidator } from '../validation/validator.ts';
import { signUpSchema } from './account-schema.ts';
import { insertAccount } from './insert-account.ts';
import type { SignedUp, SignUpInput } from './account-schema.ts';

const validateInput = createValidator<SignUpInput>(signUpSchema);

/**
 * A new account and its first key, in one transaction: a name already taken (by anyone, a
 * disabled account included) is ACCOUNT_NAME_TAKEN and changes nothing. The unique name
 * settles two sign-ups racing for it: exactly one inserts the row.
 */
export async function signUp(db: Kysely<Database>, input: unknown, naming?: FieldNaming): Promise<SignedUp> {
  const { account: name } = validateInput(input, naming);
  const createdAt = new Date().toISOString();
  return inTransaction(db, async (trx) => {
    const accountId = await insertAccount(trx, name, createdAt);
    if (accountId === null) throw AppError.of('ACCOUNT_NAME_TAKEN', 'byName', { name });
    return { account: { name, createdAt }, apiKey: await insertApiKey(trx, accountId, createdAt) };
  });
}
