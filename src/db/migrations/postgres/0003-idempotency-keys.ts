import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idempotency_keys (
      account_id bigint not null references accounts (id),
      key text not null,
      fingerprint text not null,
      status_code integer,
      response_body text,
      location text,
      created_at text not null,
      constraint idempotency_keys_pk primary key (account_id, key)
    );
    create index idempotency_keys_created_at on idempotency_keys (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table idempotency_keys`.execute(db);
}
