import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// Keys made over the API carry an optional name; an operator can disable an account, after
// which none of its keys is accepted (the verifier reads `disabled_at` with the key).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
  await db.schema.alterTable('accounts').addColumn('disabled_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('disabled_at').execute();
  await db.schema.alterTable('api_keys').dropColumn('name').execute();
}
