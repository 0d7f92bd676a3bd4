import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../types.ts';

/** One table's id sequence moved on: the next id it would have given, and the one it gives now. */
export interface AdvancedIds {
  table: string;
  from: number;
  to: number;
}

/**
 * Moves every id sequence of the schema (each identity column's) `by` past the larger of its
 * value and the table's highest id. After an asynchronous standby is promoted, the old primary
 * may have handed out ids whose rows never reached the standby: a client was told "pet 60324",
 * and without this the new primary would give 60324 to another pet. `by` is a bound on the
 * ids the old primary could have given after the standby's last WAL: its write rate times the
 * replication lag, with room to spare. Ids left unused are only a gap.
 */
export async function advanceIds(db: Kysely<Database>, by: number): Promise<AdvancedIds[]> {
  const { rows } = await sql<{ table: string; sequence: string }>`
    select c.table_name as table, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) as sequence
    from information_schema.columns c
    where c.table_schema = current_schema() and c.is_identity = 'YES'
    order by c.table_name`.execute(db);
  const advanced: AdvancedIds[] = [];
  for (const { table, sequence } of rows) {
    const { rows: moved } = await sql<{ from: string; to: string }>`
      select s.last_value + 1 as from, setval(${sequence}::regclass, greatest(s.last_value, coalesce(t.top, 0)) + ${by}::bigint) + 1 as to
      from (select last_value from ${sql.table(sequence)}) s,
           (select max(id) as top from ${sql.table(table)}) t`.execute(db);
    const [row] = moved;
    if (row) advanced.push({ table, from: Number(row.from), to: Number(row.to) });
  }
  return advanced;
}
