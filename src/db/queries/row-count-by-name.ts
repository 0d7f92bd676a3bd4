import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { Database } from '../types.ts';

/** The row of one trigger-kept count (migration 0008), if it was ever written. */
export const rowCountByName = preparedQuery((db: Kysely<Database>, name: string) =>
  db.selectFrom('row_counts').select('value').where('name', '=', name),
);
