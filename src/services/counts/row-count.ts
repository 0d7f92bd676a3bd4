import type { Kysely } from 'kysely';
import { rowCountByName } from '../../db/queries/row-count-by-name.ts';
import type { Database } from '../../db/types.ts';

/**
 * A count kept by the database's triggers in the same transaction as the writes that change it
 * (migration 0008): one row read, whatever the table's size. Names: `pets`, `pets:<status>`,
 * `orders:<account>`, `orders:<account>:<status>`; one never written is 0.
 */
export async function rowCount(db: Kysely<Database>, name: string): Promise<number> {
  const [row] = await rowCountByName(db, name);
  return Number(row?.value ?? 0);
}
