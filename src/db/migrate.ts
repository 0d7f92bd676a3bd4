import { Migrator, sql } from 'kysely';
import type { Kysely } from 'kysely';
import { engineOf } from './engine.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './types.ts';

export interface MigrationOutcome {
  applied: string[];
}

/** pg_advisory_lock key for "migrating": any two processes migrating one database take turns. */
export const MIGRATION_LOCK_KEY = 0x7e75_0001;
const MIGRATION_LOCK = sql.lit(MIGRATION_LOCK_KEY);

async function run(db: Kysely<Database>): Promise<MigrationOutcome> {
  const engine = engineOf(db);
  // Kysely looks for its own tables in every schema unless told which: name the one we use,
  // so another schema's migration tables (another app on the same server) are never taken for ours.
  const schema =
    engine === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations[engine] },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw new Error(`Database migration failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/**
 * Applies pending migrations. On PostgreSQL several servers may start at once on an empty
 * database: each takes a session advisory lock on one connection and migrates on that same
 * connection, so they migrate one after another; the first applies everything, the others find
 * nothing left to do. (Kysely's own lock table cannot serve: creating it can race.) SQLite
 * needs none: every transaction takes the write lock at BEGIN.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationOutcome> {
  if (engineOf(db) !== 'postgres') return run(db);
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(connection);
    try {
      return await run(connection);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(connection);
    }
  });
}
