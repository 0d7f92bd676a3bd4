import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// PostgreSQL's twin of sqlite/0010-table-versions: a bump per row written, in the writing
// transaction, so a reader that sees the commit sees the new version. Row-level, not
// statement-level: a statement that changes nothing (the delivery worker's idle claim, several
// times a second per instance) must not write. Writers to one table wait on its version row
// until the other commits, as they already do on its row_counts rows (0008).
const TABLES = ['pets', 'orders', 'messages'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table table_versions (name text primary key, version bigint not null);
    insert into table_versions (name, version) values ('pets', 1), ('orders', 1), ('messages', 1);
    create function bump_table_version() returns trigger language plpgsql as $$
    begin
      update table_versions set version = version + 1 where name = tg_table_name;
      return null;
    end $$;
  `.execute(db);
  for (const table of TABLES) {
    await sql
      .raw(
        `create trigger ${table}_versioned after insert or update or delete on ${table} for each row execute function bump_table_version()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await sql.raw(`drop trigger ${table}_versioned on ${table}`).execute(db);
  await sql`drop function bump_table_version(); drop table table_versions;`.execute(db);
}
