// Databases for the bench: migrated by the project's own code, one key, and `pets` pets.
// SQLite: a file in the run's folder. PostgreSQL: a database of its own on the server
// BENCH_POSTGRES_URL names (default postgres://127.0.0.1:5432/postgres), dropped afterwards.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/config/load-config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { withDefaultUser } from '../src/db/postgres/open-postgres.ts';
import { createApiKey } from '../src/services/api-keys/index.ts';

export type BenchEngine = 'sqlite' | 'postgres';

export interface BenchDatabase {
  url: string;
  key: string;
  drop(): Promise<void>;
}

const ADMIN_URL = withDefaultUser(process.env.BENCH_POSTGRES_URL ?? 'postgres://127.0.0.1:5432/postgres');

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Migrates with this checkout's code, or with another build's CLI (`cli`: its dist/cli/main.js),
 * whose release may know fewer migrations; then makes one key. Resolves with the key.
 */
async function migrateWithKey(url: string, cli?: string): Promise<string> {
  if (cli) {
    const run = (args: string[]) =>
      execFileSync(process.execPath, [cli, ...args], { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
    run(['migrate']);
    return run(['keys', 'create', '--account', 'bench']).trim().split('\n').at(-1) ?? '';
  }
  const { db } = openDatabase(loadConfig({ DATABASE_URL: url }).database);
  try {
    await migrateToLatest(db);
    return (await createApiKey(db, 'bench')).key;
  } finally {
    await db.destroy();
  }
}

const STATUSES = ['available', 'pending', 'sold'];

/** `cli`: migrate with that build (a baseline's) instead of this checkout's code. */
export async function benchDatabase(engine: BenchEngine, dir: string, name: string, pets: number, cli?: string): Promise<BenchDatabase> {
  const at = new Date().toISOString();
  if (engine === 'sqlite') {
    const url = join(dir, `${name}.db`);
    const key = await migrateWithKey(url, cli);
    const raw = new SQLite(url);
    const insert = raw.prepare('insert into pets (name, category_id, status, created_at) values (?, ?, ?, ?)');
    raw.transaction(() => {
      for (let i = 1; i <= pets; i++) insert.run(`pet-${i}`, 1 + (i % 50), STATUSES[i % 3], at);
    })();
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    return { url, key, drop: async () => undefined };
  }
  const database = `petstore_bench_${name}_${process.pid}`;
  await admin((client) => client.query(`drop database if exists ${database}`).then(() => client.query(`create database ${database}`)));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const key = await migrateWithKey(url.toString(), cli);
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(
    `insert into pets (name, category_id, status, created_at)
     select 'pet-' || i, 1 + i % 50, (array['available', 'pending', 'sold'])[i % 3 + 1], $1 from generate_series(1, $2) as i`,
    [at, pets],
  );
  await client.query('vacuum analyze pets');
  await client.end();
  return {
    url: url.toString(),
    key,
    drop: () => admin(async (c) => void (await c.query(`drop database if exists ${database} with (force)`))),
  };
}
