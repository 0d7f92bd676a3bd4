import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// No id names two records across a failover, whatever order an operator runs the steps in
// (issue 57). A promoted asynchronous standby's sequences can stand behind ids the old primary
// handed out (PostgreSQL logs a sequence at most 32 ahead; writes it never received are lost),
// so its first inserts would reuse ids clients hold. The database remembers the WAL timeline
// its ids were drawn on; promotion starts a new timeline, and before the first insert there
// (a statement trigger on every table with an identity, which runs before the statement draws
// its ids, pets' and orders' in-order ids included) every id sequence moves 1,000,000 past the
// larger of its value and its table's highest id, under one lock, once. A restore into another
// cluster changes the timeline too: a gap, never a reuse. Per insert the check is a read of one
// row; the move itself takes milliseconds.
export const ID_GAP = 1_000_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function wal_timeline() returns integer language sql volatile as $$
      select ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int
    $$;
    create table id_timeline (only_row boolean primary key default true check (only_row), timeline integer not null);
    insert into id_timeline (timeline) values (wal_timeline());

    create function ids_follow_timeline() returns trigger language plpgsql as $$
    declare
      now_on integer := wal_timeline();
      identity record;
    begin
      if now_on = (select timeline from id_timeline) then return null; end if;
      -- One mover: the others wait for it, then find the timeline recorded.
      perform pg_advisory_xact_lock(32373, 0);
      if now_on = (select timeline from id_timeline) then return null; end if;
      for identity in
        select c.table_name as tbl, c.column_name as col, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) as seq
        from information_schema.columns c where c.table_schema = current_schema() and c.is_identity = 'YES'
      loop
        execute format(
          'select setval(%L::regclass, greatest((select last_value from %s), coalesce((select max(%I) from %I), 0)) + ${sql.raw(String(ID_GAP))})',
          identity.seq, identity.seq, identity.col, identity.tbl);
      end loop;
      update id_timeline set timeline = now_on;
      return null;
    end $$;
  `.execute(db);
  const { rows } = await sql<{ table: string }>`
    select distinct table_name as table from information_schema.columns
    where table_schema = current_schema() and is_identity = 'YES' order by table_name`.execute(db);
  for (const { table } of rows) {
    await sql`create trigger ${sql.id(`${table}_ids_follow_timeline`)} before insert on ${sql.table(table)}
      for each statement execute function ids_follow_timeline()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ids_follow_timeline() cascade; drop table id_timeline; drop function wal_timeline();`.execute(db);
}
