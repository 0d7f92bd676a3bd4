import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database, TableVersionsTable } from '../../db/types.ts';

export type VersionedTable = TableVersionsTable['name'];

/** Each versioned table's version as of one read. */
export type Versions = Readonly<Record<VersionedTable, string>>;

const readRow = preparedQuery((db: Kysely<Database>, keyId: number) =>
  db.selectNoFrom((eb) => [
    eb.selectFrom('table_versions').select('version').where('name', '=', 'pets').as('pets'),
    eb.selectFrom('table_versions').select('version').where('name', '=', 'orders').as('orders'),
    eb.selectFrom('table_versions').select('version').where('name', '=', 'messages').as('messages'),
    eb
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select('api_keys.id')
      .where('api_keys.id', '=', keyId)
      .where('api_keys.revoked_at', 'is', null)
      .where('accounts.disabled_at', 'is', null)
      .as('active_key'),
  ]),
);

/**
 * The tables' versions, read in one statement with whether the calling key still works: null
 * once it was revoked or its account disabled, by this instance or any other. A cached answer
 * is served only under versions read after every write acknowledged before the request came,
 * and never to a key that no longer works, whatever the key cache still believes.
 */
export async function readVersions(db: Kysely<Database>, keyId: number): Promise<Versions | null> {
  const [row] = await readRow(db, keyId);
  if (!row || row.active_key == null) return null;
  return { pets: String(row.pets), orders: String(row.orders), messages: String(row.messages) };
}
