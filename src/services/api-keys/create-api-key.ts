import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/database-error.ts';
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

/** Creates a key for the account, creating the account when it is new. */
export async function createApiKey(db: Kysely<Database>, accountName: string): Promise<CreatedApiKey> {
  if (!ACCOUNT_NAME_PATTERN.test(accountName)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'Account name must be 1-64 characters of letters, digits, ".", "_" or "-", starting with a letter or digit.',
    );
  }
  const createdAt = new Date().toISOString();
  // A prefix collision (8 base62 characters) is astronomically rare; a fresh key settles it.
  for (let attempt = 0; ; attempt++) {
    const key = generateApiKey();
    try {
      return await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('accounts')
          .values({ name: accountName, created_at: createdAt })
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
        const account = await trx.selectFrom('accounts').select('id').where('name', '=', accountName).executeTakeFirstOrThrow();
        const row = await trx
          .insertInto('api_keys')
          .values({
            account_id: account.id,
            prefix: keyPrefix(key),
            key_hash: hashApiKey(key).toString('hex'),
            created_at: createdAt,
          })
          .returning(['id', 'prefix'])
          .executeTakeFirstOrThrow();
        return { id: row.id, prefix: row.prefix, account: accountName, createdAt, key };
      });
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}
