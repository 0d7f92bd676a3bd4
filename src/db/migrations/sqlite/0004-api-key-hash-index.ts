import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// Keys are found by their SHA-256, so a wrong secret and an unknown prefix cost the same lookup.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('api_keys_key_hash').on('api_keys').column('key_hash').unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('api_keys_key_hash').execute();
}
