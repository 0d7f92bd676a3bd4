import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

/** A new account named `name`: its id, or null when the name is taken (by anyone: the unique name settles a race). */
export async function insertAccount(db: Kysely<Database>, name: string, createdAt: string): Promise<number | null> {
  const account = await db
    .insertInto('accounts')
    .values({ name, created_at: createdAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('id')
    .executeTakeFirst();
  return account?.id ?? null;
}
