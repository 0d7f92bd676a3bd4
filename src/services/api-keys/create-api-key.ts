import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { generateApiKey, hashApiKey, keyPrefix } from './key-format.ts';

export interface CreatedApiKey {
  id: number;
  prefix: string;
  account: string;
  createdAt: string;
  /** The only time the key exists outside the client: it is not stored and cannot be shown again. */
  key: string;
}

export const ACCOUNT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * A new key for an account that exists, inside the caller's transaction. A prefix collision
 * (8 base62 characters) is astronomically rare; a fresh key settles it. ON CONFLICT, not a
 * caught violation, which would abort the transaction on PostgreSQL.
 */
export async function insertApiKey(
  trx: Transaction<Database>,
  accountId: number,
  account: string,
  createdAt: string,
): Promise<CreatedApiKey> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const key = generateApiKey();
    const row = await trx
      .insertInto('api_keys')
      .values({ account_id: accountId, prefix: keyPrefix(key), key_hash: hashApiKey(key).toString('hex'), created_at: createdAt })
      .onConflict((oc) => oc.doNothing())
      .returning(['id', 'prefix'])
      .executeTakeFirst();
    if (row) return { id: row.id, prefix: row.prefix, account, createdAt, key };
  }
  throw new Error('could not draw an unused API key');
}

/** Creates a key for the account, creating the account when it is new. */
export async function createApiKey(db: Kysely<Database>, accountName: string): Promise<CreatedApiKey> {
  if (!ACCOUNT_NAME_PATTERN.test(accountName)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'Account name must be 1-64 characters of letters, digits, ".", "_" or "-", starting with a letter or digit.',
    );
  }
  const createdAt = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('accounts')
      .values({ name: accountName, created_at: createdAt })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const account = await trx.selectFrom('accounts').select('id').where('name', '=', accountName).executeTakeFirstOrThrow();
    return insertApiKey(trx, account.id, accountName, createdAt);
  });
}
