import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// A version per table that cached answers are built from (`pets`, `orders`, `messages`), moved
// by triggers in the same transaction as every write to it (the API's, the delivery worker's,
// the CLI's): a reader that sees the write's commit sees the new version, on every instance.
// Answers keyed by the versions they were read under are never served after a write
// (docs/caching.md).
const TABLES = ['pets', 'orders', 'messages'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table table_versions (name text primary key, version integer not null) without rowid`.execute(db);
  for (const table of TABLES) {
    await sql`insert into table_versions (name, version) values (${table}, 1)`.execute(db);
    for (const event of ['insert', 'update', 'delete']) {
      await sql
        .raw(
          `create trigger ${table}_versioned_${event} after ${event} on ${table} begin
             update table_versions set version = version + 1 where name = '${table}';
           end`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger ${table}_versioned_${event}`).execute(db);
  }
  await sql`drop table table_versions`.execute(db);
}
