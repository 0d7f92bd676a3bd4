import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// PostgreSQL's 0013 makes ids follow a failover's new timeline; SQLite has no standby to
// promote, so nothing here: the name keeps both engines' histories alike.
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
