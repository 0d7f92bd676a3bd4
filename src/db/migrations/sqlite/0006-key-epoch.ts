import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// PostgreSQL's 0006 adds a key epoch for other processes to poll. SQLite needs none: its
// data_version already moves on every commit by another connection (db/data-version.ts).
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
