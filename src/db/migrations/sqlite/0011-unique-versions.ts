import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// Versions that name one state of one database's history (docs/caching.md). 0010's counters
// start at 1 in every new database and go back with a restore, so an answer kept under
// "pets 5" could be served for another database, or for a different fifth state after a
// restore. Here every write sets a random value instead (53 bits: exact in JavaScript), and the
// caller-specific tables get a version per account (`orders:<account>`, `messages:<account>`), so
// a tag moves only when the caller's own answer could have. No row yet means the account never
// wrote one: still a state of its own (empty). 0010's counters for `orders` and `messages` keep
// moving for the release before this one, serving beside it during a rolling upgrade.
const TOKEN = 'random() & 9007199254740991';

export async function up(db: Kysely<unknown>): Promise<void> {
  const setVersions = (names: string) => `
    insert into table_versions (name, version) select name, ${TOKEN} from (${names})
    where true on conflict (name) do update set version = excluded.version;`;
  for (const statement of [
    ...['insert', 'update', 'delete'].map((event) => `drop trigger pets_versioned_${event}`),
    ...['insert', 'update', 'delete'].map(
      (event) => `create trigger pets_versioned_uniquely_${event} after ${event} on pets begin
         update table_versions set version = ${TOKEN} where name = 'pets';
       end`,
    ),
    `update table_versions set version = ${TOKEN} where name = 'pets'`,
    ...['orders', 'messages'].flatMap((table) => [
      `create trigger ${table}_versioned_per_account_insert after insert on ${table} begin
         ${setVersions(`select '${table}:' || new.account_id as name`)}
       end`,
      `create trigger ${table}_versioned_per_account_update after update on ${table} begin
         ${setVersions(`select '${table}:' || old.account_id as name union select '${table}:' || new.account_id`)}
       end`,
      `create trigger ${table}_versioned_per_account_delete after delete on ${table} begin
         ${setVersions(`select '${table}:' || old.account_id as name`)}
       end`,
      `insert into table_versions (name, version) select '${table}:' || id, ${TOKEN} from accounts`,
    ]),
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['orders', 'messages']) {
    for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger ${table}_versioned_per_account_${event}`).execute(db);
    await sql.raw(`delete from table_versions where name like '${table}:%'`).execute(db);
  }
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger pets_versioned_uniquely_${event}`).execute(db);
    await sql
      .raw(
        `create trigger pets_versioned_${event} after ${event} on pets begin
           update table_versions set version = version + 1 where name = 'pets';
         end`,
      )
      .execute(db);
  }
}
