import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { explainError } from './database-error.ts';
import { engineOf } from './engine.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './types.ts';

/** Where the database's schema stands against this release's migrations. */
export interface MigrationStatus {
  /** This release's migrations the database has, in order, with when each ran. */
  applied: { name: string; executedAt: Date }[];
  /** This release's migrations the database lacks, in order. */
  pending: string[];
  /** Migrations the database has that this release does not know: a newer release applied them. */
  newer: string[];
}

export interface MigrationOutcome {
  /** Applied by this call, in order. */
  applied: string[];
  status: MigrationStatus;
}

/** The database lacks migrations and this process was told not to apply them (MIGRATE_ON_START=false). */
export class PendingMigrationsError extends Error {
  constructor(readonly pending: string[]) {
    super(
      `the database lacks ${pending.length} migration(s) of this release: ${pending.join(', ')}. ` +
        'Apply them with `petstore migrate`, or set MIGRATE_ON_START=true to apply them at start.',
    );
    this.name = 'PendingMigrationsError';
  }
}

/** pg_advisory_lock key for "migrating": any two processes migrating one database take turns. */
export const MIGRATION_LOCK_KEY = 0x7e75_0001;
const MIGRATION_LOCK = sql.lit(MIGRATION_LOCK_KEY);

async function migratorFor(db: Kysely<Database>): Promise<Migrator> {
  const engine = engineOf(db);
  // Kysely looks for its own tables in every schema unless told which: name the one we use,
  // so another schema's migration tables (another app on the same server) are never taken for ours.
  const schema =
    engine === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations[engine] },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/** How long a starting server waits for another's migration before it gives up. */
const MIGRATION_WAIT_MS = 10 * 60_000;

/**
 * Runs `work` in a transaction of its own on PostgreSQL with the statement and lock timeouts of
 * the migration wait, set local so they hold whatever the connection's are (session parameters
 * on PostgreSQL itself, a `set local` per transaction behind a pooler) and end with it. What a
 * start waits for, or reads of Kysely's catalog, is no request: a short
 * DATABASE_STATEMENT_TIMEOUT_MS on a busy machine must not keep a server from starting.
 */
function patiently<T>(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (engineOf(db) !== 'postgres') return work(db);
  return db.transaction().execute(async (trx) => {
    const limit = sql.lit(`${MIGRATION_WAIT_MS}ms`);
    await sql`set local statement_timeout = ${limit}`.execute(trx);
    await sql`set local lock_timeout = ${limit}`.execute(trx);
    return work(trx);
  });
}

/** Where the schema stands, read patiently. */
const readStatus = (db: Kysely<Database>): Promise<MigrationStatus> =>
  patiently(db, async (reading) => statusOf(reading, await migratorFor(reading)));

async function statusOf(db: Kysely<Database>, migrator: Migrator): Promise<MigrationStatus> {
  const known = await migrator.getMigrations();
  const applied = known.flatMap(({ name, executedAt }) => (executedAt ? [{ name, executedAt }] : []));
  const pending = known.filter((m) => !m.executedAt).map((m) => m.name);
  // Kysely's table exists once any migration ran: only then can it hold a newer release's rows.
  const recorded = applied.length > 0 ? (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows : [];
  const names = new Set(known.map((m) => m.name));
  const newer = recorded.map((r) => r.name).filter((name) => !names.has(name));
  return { applied, pending, newer: newer.sort() };
}

/** Where migrations may run (OpenDatabase.migrations): without the lock, or not at all (`refusal`), behind a pooler. */
export interface MigrationOptions {
  /** Apply what is pending; false: refuse, naming it (MIGRATE_ON_START=false). */
  apply?: boolean;
  /** Take the migration lock (a session advisory lock on PostgreSQL): only where one session holds it. */
  lock?: boolean;
  /** Why nothing can be applied here, to say when something is pending (behind a pooler without DATABASE_MIGRATION_URL). */
  refusal?: string | null;
}

async function run(db: Kysely<Database>, apply: boolean, refusal: string | null): Promise<MigrationOutcome> {
  const before = await readStatus(db);
  if (before.pending.length === 0) return { applied: [], status: before };
  if (!apply) throw new PendingMigrationsError(before.pending);
  if (refusal)
    throw new Error(
      `the database lacks ${before.pending.length} migration(s) of this release (${before.pending.join(', ')}), and ${refusal}.`,
    );
  if (before.newer.length > 0) {
    throw new Error(
      `the database has migrations this release does not know (${before.newer.join(', ')}) and lacks some it has ` +
        `(${before.pending.join(', ')}): its history went another way. Restore a backup taken before, or run the release that made it.`,
    );
  }
  const { error, results = [] } = await (await migratorFor(db)).migrateToLatest();
  if (error) throw new Error(`Database migration failed: ${explainError(error)}`, { cause: error });
  const applied = results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
  // Kysely applies every pending one or fails: what is applied now is what was pending.
  const now = new Date();
  return {
    applied,
    status: { applied: [...before.applied, ...applied.map((name) => ({ name, executedAt: now }))], pending: [], newer: [] },
  };
}

/**
 * Brings the schema to this release's (or, with `apply: false`, refuses when it is behind,
 * naming what is missing). A database a newer release migrated is served as it is: releases
 * only expand the schema before they contract it (docs/operations.md, Upgrading), so this
 * release still works on it. On PostgreSQL several servers may start at once on an empty
 * database: each takes a session advisory lock on one connection and migrates on that same
 * connection, so they migrate one after another; the first applies everything, the others find
 * nothing left to do. (Kysely's own lock table cannot serve: creating it can race.) SQLite
 * needs none: every transaction takes the write lock at BEGIN.
 */
export function migrateToLatest(
  db: Kysely<Database>,
  { apply = true, lock = true, refusal = null }: MigrationOptions = {},
): Promise<MigrationOutcome> {
  return lock ? underMigrationLock(db, (connection) => run(connection, apply, refusal)) : run(db, apply, refusal);
}

/**
 * Where the schema stands, changing nothing. Under the same lock on PostgreSQL: a check made
 * while another process migrates waits for it and reports the result, and never reads Kysely's
 * tables while they are being made (its migrator looks at every schema's tables).
 */
export function migrationStatus(db: Kysely<Database>, { lock = true }: Pick<MigrationOptions, 'lock'> = {}): Promise<MigrationStatus> {
  return lock ? underMigrationLock(db, readStatus) : readStatus(db);
}

/** Runs `work` holding the migration lock on PostgreSQL (one connection, a session advisory lock); as it is on SQLite. */
export function underMigrationLock<T>(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (engineOf(db) !== 'postgres') return work(db);
  return db.connection().execute(async (connection) => {
    // Another process may be migrating, for as long as its migration takes (a backfill of a large
    // table): wait for it longer than a request waits. The lock is the session's and outlives
    // the wait's transaction.
    await patiently(connection, (wait) => sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(wait));
    try {
      return await work(connection);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(connection);
    }
  });
}
