import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { MIGRATION_LOCK_KEY } from '../../src/db/migrate.ts';
import { withDefaultUser } from '../../src/db/postgres/open-postgres.ts';

/**
 * Which engine the suite runs on: PostgreSQL when TEST_DATABASE_URL is a postgres:// URL
 * (npm run test:pg, and CI), else SQLite. Test files do not change per engine; the few tests
 * about one engine only say so.
 */
export const ENGINE: 'sqlite' | 'postgres' = /^postgres(ql)?:\/\//i.test(process.env.TEST_DATABASE_URL ?? '') ? 'postgres' : 'sqlite';
export const TEST_DATABASE_URL = ENGINE === 'postgres' ? withDefaultUser(process.env.TEST_DATABASE_URL ?? '') : '';

let admin: pg.Pool | undefined;
const adminPool = () => (admin ??= new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2, allowExitOnIdle: true }));
let made = 0;

export interface FreshDatabase {
  /** For DATABASE_URL. */
  url: string;
  /** Removes it (PostgreSQL: drops the schema); the folder of a SQLite file is the caller's. */
  drop(): Promise<void>;
}

/**
 * An empty database of the suite's engine: a file in `dir`, or on PostgreSQL a schema of its
 * own in the test database, reached through `search_path` in the URL, so tests in parallel
 * never see each other's rows.
 */
export async function freshDatabase(dir: string): Promise<FreshDatabase> {
  if (ENGINE === 'sqlite') return { url: join(dir, 'petstore.db'), drop: async () => undefined };
  const schema = `test_${process.pid}_${++made}_${randomBytes(3).toString('hex')}`;
  await adminPool().query(`create schema ${schema}`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  // Dropped under the migration lock: Kysely's migrator lists the tables of every schema, and a
  // schema dropped while another app of a parallel file migrates fails that listing.
  const drop = async () => {
    const client = await adminPool().connect();
    try {
      await client.query(`begin; select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}); drop schema if exists ${schema} cascade; commit`);
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  return { url: url.toString(), drop };
}

/** Runs `sql` on the database at `url` from outside the server, as another process would, and returns the rows. */
export async function query<Row>(url: string, sql: string): Promise<Row[]> {
  if (ENGINE === 'sqlite') {
    const db = new SQLite(url, { readonly: true });
    try {
      return db.prepare(sql).all() as Row[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** Runs `sql` that writes on the database at `url` from outside the server, as another process would (no statement timeout). */
export async function execute(url: string, sql: string): Promise<void> {
  if (ENGINE === 'sqlite') {
    const db = new SQLite(url, { timeout: 30_000 });
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Holds a lock that keeps every other writer out of `table` until `release()`: another process mid-transaction. */
export async function holdWriteLock(url: string, table: string): Promise<{ release(): Promise<void> }> {
  if (ENGINE === 'sqlite') {
    const db = new SQLite(url);
    db.exec('begin exclusive');
    return {
      release: async () => {
        db.exec('rollback');
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`begin; lock table ${table} in share mode`);
  return {
    release: async () => {
      await client.query('rollback');
      await client.end();
    },
  };
}
