import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { NewApiKeyWithSecret } from './api-key-schema.ts';
import { insertApiKey } from './create-api-key.ts';

/**
 * On a database with no accounts yet, creates account `default` with one key, so a newcomer
 * can call the API at once. The account is inserted only where none exists, in one statement:
 * of several servers starting at once on an empty database, exactly one inserts it (the others'
 * insert finds the name taken, or accounts present) and only that one makes and prints the key.
 */
export async function ensureFirstKey(db: Kysely<Database>): Promise<NewApiKeyWithSecret | null> {
  const createdAt = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    const account = await trx
      .insertInto('accounts')
      .columns(['name', 'created_at'])
      .expression(
        trx
          .selectNoFrom([sql<string>`${'default'}`.as('name'), sql<string>`${createdAt}`.as('created_at')])
          .where(({ not, exists }) => not(exists(trx.selectFrom('accounts').select(sql`1`.as('one'))))),
      )
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('id')
      .executeTakeFirst();
    return account ? insertApiKey(trx, account.id, createdAt) : null;
  });
}
