import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// Keys are found by their SHA-256, so a wrong secret and an unknown prefix cost the same lookup.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index api_keys_key_hash on api_keys (key_hash)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index api_keys_key_hash`.execute(db);
}
