import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import type { Database } from '../../src/db/types.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { listenForScrapes } from '../../src/telemetry/metrics-listener.ts';
import { freshDatabase } from './test-database.ts';

export interface TestApp {
  app: FastifyInstance;
  /** The app's own connection: for arranging keys and for reading what was stored. */
  db: Kysely<Database>;
  /** Its DATABASE_URL, for a CLI or another process to reach the same database. */
  databaseUrl: string;
  key: string;
  auth: { authorization: string };
  /** A request with the test key. */
  call(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** The app on a real socket (loopback, a free port), listening once: its origin. */
  listen(): Promise<string>;
  /** GET /metrics from the app's metrics listener (METRICS_PORT set), opened on loopback once: the exposition text. */
  scrape(): Promise<string>;
  /** How many rows a table holds now: what a request stored, or did not. */
  count(table: keyof Database): Promise<number>;
  close(): Promise<void>;
}

/**
 * TEST_DATABASE_POOLER=transaction runs every app of the suite as it runs behind a transaction
 * pooler (DATABASE_POOLER: timeouts set per transaction, parameters inlined, no statement
 * names), on the same direct PostgreSQL, migrating there (DATABASE_MIGRATION_URL): every
 * statement the server makes goes that way.
 */
const POOLER: Record<string, string> = process.env.TEST_DATABASE_POOLER ? { DATABASE_POOLER: process.env.TEST_DATABASE_POOLER } : {};

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'petstore-test-'));
}

/**
 * A fully built app on a fresh database of the suite's engine (test-database.ts), with one API
 * key for account "tester". `wrapDb` may add Kysely plugins to observe queries.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  wrapDb: (db: Kysely<Database>) => Kysely<Database> = (db) => db,
  logStream?: { write(line: string): void },
): Promise<TestApp> {
  const dir = tempDir();
  const fresh = await freshDatabase(dir);
  // Delivery is off unless a test turns it on, so message records stay as the request left them.
  // A small pool: many apps of parallel test files share one PostgreSQL server.
  const pooled = POOLER.DATABASE_POOLER ? { ...POOLER, DATABASE_MIGRATION_URL: fresh.url } : {};
  const config = loadConfig({
    DATABASE_URL: fresh.url,
    DATABASE_POOL_SIZE: '4',
    LOG_LEVEL: 'silent',
    MESSAGE_DELIVERY: 'false',
    ...pooled,
    ...env,
  });
  const database = openDatabase(config.database);
  const { db } = database;
  await migrateToLatest(db);
  const { key } = await createApiKey(db, 'tester');
  const app = await createApp({ config, database: { ...database, db: wrapDb(db) }, logStream });
  const auth = { authorization: `Bearer ${key}` };
  let closing: Promise<void> | undefined;
  let listening: Promise<string> | undefined;
  let scraping: Promise<string> | undefined;
  return {
    app,
    db,
    databaseUrl: fresh.url,
    key,
    auth,
    call: (options) => app.inject({ ...options, headers: { ...auth, ...options.headers } }),
    listen: () => (listening ??= app.listen({ port: 0, host: '127.0.0.1' })),
    scrape: async () => {
      if (!app.metricsListener) throw new Error('metrics are off: give the app METRICS_PORT');
      scraping ??= listenForScrapes(app.metricsListener, 0, '127.0.0.1');
      const response = await fetch(`http://${await scraping}/metrics`);
      if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}: ${await response.text()}`);
      return response.text();
    },
    count: async (table) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    // Closing twice is harmless: a test may close early what its fixture closes at the end.
    close: async () => {
      closing ??= app.close().then(async () => {
        await fresh.drop();
        rmSync(dir, { recursive: true, force: true });
      });
      await closing;
    },
  };
}

/**
 * Another instance of the server on the database at `databaseUrl` (a TestApp's, or one a test
 * restored), as a second process would be: its own pool, key cache and response store. The
 * caller closes it.
 */
export function startInstanceOn(databaseUrl: string, env: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '2', LOG_LEVEL: 'silent', MESSAGE_DELIVERY: 'false', ...env });
  return createApp({ config });
}

/** The Error body contract (§2.4): exactly code, message and status, status equal to the HTTP status. */
export function expectErrorBody(
  response: { statusCode: number; body: string; headers: Record<string, unknown> },
  code: string,
): {
  code: string;
  message: string;
  status: number;
} {
  const body = JSON.parse(response.body) as { code: string; message: string; status: number };
  if (Object.keys(body).sort().join() !== 'code,message,status') throw new Error(`not an Error body: ${response.body}`);
  if (body.status !== response.statusCode) throw new Error(`status ${body.status} != HTTP ${response.statusCode}`);
  if (body.code !== code) throw new Error(`expected code ${code}, got ${body.code}: ${body.message}`);
  if (typeof body.message !== 'string' || body.message.length === 0) throw new Error('empty message');
  if (!String(response.headers['content-type']).startsWith('application/json')) throw new Error('error is not JSON');
  return body;
}
