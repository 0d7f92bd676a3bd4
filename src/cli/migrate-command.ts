import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { migrateToLatest, migrationStatus } from '../db/migrate.ts';
import type { MigrationStatus } from '../db/migrate.ts';
import type { Database } from '../db/types.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { table } from './table.ts';

function listing(status: MigrationStatus, appliedNow: ReadonlySet<string>): string {
  return table([
    ['MIGRATION', 'STATE'],
    ...status.applied.map(({ name, executedAt }) => [name, appliedNow.has(name) ? 'applied now' : `applied ${executedAt.toISOString()}`]),
    ...status.pending.map((name) => [name, 'pending']),
    ...status.newer.map((name) => [name, 'applied by a newer release']),
  ]);
}

/**
 * `petstore migrate` applies what is pending; `--check` applies nothing. Both list every
 * migration by name and state. With `--check`, the exit code tells a deploy pipeline whether
 * the schema is current (0) or migrations are pending (EXIT_CODES.pending). Where migrations
 * run is the database's to say (behind a pooler: DATABASE_MIGRATION_URL).
 */
export async function migrateCommand(
  { db, lock, refusal }: { db: Kysely<Database>; lock: boolean; refusal: string | null },
  args: string[],
  out: (line: string) => void,
): Promise<number> {
  const { values } = parseArgs({ args, options: { check: { type: 'boolean' } }, strict: true, allowPositionals: false });
  if (values.check) {
    const status = await migrationStatus(db, { lock });
    out(listing(status, new Set()));
    if (status.pending.length > 0) {
      out(`${status.pending.length} migration(s) pending: ${status.pending.join(', ')}. Apply them with: petstore migrate`);
      return EXIT_CODES.pending;
    }
    out('The database is up to date.');
    return EXIT_CODES.ok;
  }
  const { applied, status } = await migrateToLatest(db, { lock, refusal });
  out(listing(status, new Set(applied)));
  out(applied.length > 0 ? `Applied ${applied.length} migration(s): ${applied.join(', ')}.` : 'The database is up to date.');
  return EXIT_CODES.ok;
}
