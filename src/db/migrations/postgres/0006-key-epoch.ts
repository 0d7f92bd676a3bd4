import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// One row that moves whenever a key stops being valid (revoked or deleted) or an account
// changes. Every server polls it (db/postgres/open-postgres.ts), so a key revoked through one
// instance, or the CLI, is refused by all of them within the poll.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table key_epoch (id boolean primary key default true check (id), epoch bigint not null);
    insert into key_epoch (epoch) values (0);
    create function bump_key_epoch() returns trigger language plpgsql as $$
    begin
      update key_epoch set epoch = epoch + 1;
      return null;
    end $$;
    create trigger api_keys_revoked after update of revoked_at or delete on api_keys
      for each statement execute function bump_key_epoch();
    create trigger accounts_changed after update or delete on accounts
      for each statement execute function bump_key_epoch();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger accounts_changed on accounts;
    drop trigger api_keys_revoked on api_keys;
    drop function bump_key_epoch();
    drop table key_epoch;
  `.execute(db);
}
