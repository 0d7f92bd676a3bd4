import { Migrator } from 'kysely';
import type { Kysely } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { Database } from './types.ts';

export interface MigrationOutcome {
  applied: string[];
}

export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationOutcome> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    throw new Error(`Database migration failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
