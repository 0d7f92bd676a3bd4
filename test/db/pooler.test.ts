import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { loadConfig } from '../../src/config/load-config.ts';
import { createApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { startPgBouncer } from '../helpers/pgbouncer.ts';
import type { PgBouncer } from '../helpers/pgbouncer.ts';
import { ENGINE, TEST_DATABASE_URL } from '../helpers/test-database.ts';

// The server behind Debian 12's PgBouncer 1.18 in transaction mode, as a fleet runs it
// (docs/deployment.md, "A pooler"): session state means nothing there, statement names
// collide across clients, and startup parameters are refused. Each database here is a real
// one (a pooler passes no `options`, so the suite's schema per test cannot be used).

const bouncers: PgBouncer[] = [];
const databases: string[] = [];
const apps: FastifyInstance[] = [];
let made = 0;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the suite's server: its name, and its direct URL. */
async function newDatabase(): Promise<{ name: string; direct: string }> {
  const name = `petstore_pooler_${process.pid}_${++made}`;
  await admin((client) => client.query(`create database ${name}`));
  databases.push(name);
  const direct = new URL(TEST_DATABASE_URL);
  direct.pathname = `/${name}`;
  direct.search = '';
  return { name, direct: direct.toString() };
}

async function bouncer(settings: string[] = [], poolSize = 3): Promise<PgBouncer> {
  const started = await startPgBouncer({
    settings,
    poolSize,
    target: { host: '127.0.0.1', port: Number(new URL(TEST_DATABASE_URL).port || 5432) },
  });
  bouncers.push(started);
  return started;
}

async function app(env: Record<string, string>): Promise<FastifyInstance> {
  const made = await createApp({
    config: loadConfig({ LOG_LEVEL: 'silent', MESSAGE_DELIVERY: 'false', RATE_LIMIT_PER_MINUTE: '0', DATABASE_POOL_SIZE: '4', ...env }),
  });
  apps.push(made);
  return made;
}

/** A key for a new account, made on PostgreSQL directly (migrated first), as `petstore keys create` would. */
async function keyOn(direct: string): Promise<string> {
  const database = openDatabase(loadConfig({ DATABASE_URL: direct }).database);
  try {
    await migrateToLatest(database.db);
    return (await createApiKey(database.db, 'pooled')).key;
  } finally {
    await database.close();
  }
}

describe.runIf(ENGINE === 'postgres')('behind PgBouncer in transaction mode (DATABASE_POOLER=transaction)', { timeout: 180_000 }, () => {
  it.afterAll(async () => {
    for (const started of apps.splice(0)) await started.close();
    for (const started of bouncers.splice(0)) await started.stop();
    for (const name of databases.splice(0)) await admin((client) => client.query(`drop database if exists ${name} with (force)`));
  });

  it('is refused at start as a direct connection, saying why: a startup parameter refused, or timeouts ignored', async () => {
    const { name } = await newDatabase();
    const plain = await bouncer();
    await expect(app({ DATABASE_URL: plain.url(name) })).rejects.toThrow(
      /unsupported startup parameter: statement_timeout.*DATABASE_POOLER=transaction/s,
    );
    const ignoring = await bouncer(['ignore_startup_parameters = statement_timeout,lock_timeout']);
    await expect(app({ DATABASE_URL: ignoring.url(name) })).rejects.toThrow(/timeouts .* do not apply .* set DATABASE_POOLER=transaction/s);
  });

  it('needs PostgreSQL itself to migrate: without DATABASE_MIGRATION_URL a start with migrations pending says so', async () => {
    const { name, direct } = await newDatabase();
    const pooler = await bouncer();
    await expect(app({ DATABASE_URL: pooler.url(name), DATABASE_POOLER: 'transaction' })).rejects.toThrow(
      /lacks \d+ migration\(s\).*set DATABASE_MIGRATION_URL/s,
    );
    // With it, migrations run there, under their lock; then every instance serves through the pooler.
    const served = await app({ DATABASE_URL: pooler.url(name), DATABASE_POOLER: 'transaction', DATABASE_MIGRATION_URL: direct });
    expect((await served.inject({ url: '/readyz' })).statusCode).toBe(200);
    // Once current, an instance without it starts and serves.
    const other = await app({ DATABASE_URL: pooler.url(name), DATABASE_POOLER: 'transaction' });
    expect((await other.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('serves two instances sharing three server connections under load: every request answered, each write stored once', async () => {
    const { name, direct } = await newDatabase();
    const key = await keyOn(direct);
    const pooler = await bouncer([], 3);
    const env = { DATABASE_URL: pooler.url(name), DATABASE_POOLER: 'transaction', DATABASE_MIGRATION_URL: direct };
    const instances = [await app(env), await app(env)];
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const statuses: number[] = [];
    const work = Array.from({ length: 240 }, (_, i) => async () => {
      const target = instances[i % 2] as FastifyInstance;
      const kind = i % 4;
      const res =
        kind === 0
          ? await target.inject({ method: 'POST', url: '/v1/pets', headers, payload: { name: `rest-${i}`, categoryId: i + 1 } })
          : kind === 1
            ? await target.inject({
                method: 'POST',
                url: '/graphql',
                headers: { ...headers, 'idempotency-key': `gql-${i}` },
                payload: { query: `mutation { createPet(input: { name: "gql-${i}", categoryId: ${i + 1} }) { id } }` },
              })
            : kind === 2
              ? await target.inject({ url: `/v1/pets?limit=${(i % 20) + 1}&status=available`, headers })
              : await target.inject({
                  method: 'POST',
                  url: '/graphql',
                  headers,
                  payload: { query: '{ pets(first: 5) { totalCount nodes { id name } } }' },
                });
      statuses.push(res.statusCode === 200 && res.body.includes('"errors"') ? 500 : res.statusCode);
    });
    // 24 at a time, over six pooled server connections' worth of clients sharing three.
    for (let at = 0; at < work.length; at += 24) await Promise.all(work.slice(at, at + 24).map((run) => run()));
    expect(statuses.filter((status) => status >= 300)).toEqual([]);
    const reader = new pg.Client({ connectionString: direct });
    await reader.connect();
    const stored = (await reader.query<{ name: string }>('select name from pets')).rows.map((row) => row.name);
    await reader.end();
    expect(stored).toHaveLength(120);
    expect(new Set(stored).size).toBe(120);
  });

  it('applies the lock and statement timeouts in every transaction, whichever server connection it gets', async () => {
    const { name, direct } = await newDatabase();
    const key = await keyOn(direct);
    const pooler = await bouncer([], 2);
    const served = await app({
      DATABASE_URL: pooler.url(name),
      DATABASE_POOLER: 'transaction',
      DATABASE_MIGRATION_URL: direct,
      DATABASE_LOCK_TIMEOUT_MS: '300',
      DATABASE_STATEMENT_TIMEOUT_MS: '700',
    });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const holder = new pg.Client({ connectionString: direct });
    await holder.connect();
    try {
      // Another session holds the table: a read (one statement) and a write (a transaction) each give up at the lock timeout.
      await holder.query('begin; lock table pets in access exclusive mode');
      const read = await served.inject({ url: '/v1/pets', headers });
      const write = await served.inject({ method: 'POST', url: '/v1/pets', headers, payload: { name: 'Blocked', categoryId: 1 } });
      await holder.query('rollback');
      expect([read.statusCode, read.json().code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect([write.statusCode, write.json().code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      // A statement that runs too long is cancelled at the statement timeout, and its write is not kept.
      await holder.query(
        `create function slow_insert() returns trigger language plpgsql as $$ begin perform pg_sleep(3); return new; end $$;
         create trigger slow_insert before insert on pets for each row execute function slow_insert()`,
      );
      const slow = await served.inject({ method: 'POST', url: '/v1/pets', headers, payload: { name: 'Slow', categoryId: 1 } });
      expect([slow.statusCode, slow.json().code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      await holder.query('drop trigger slow_insert on pets');
      expect((await holder.query('select count(*)::int as n from pets')).rows[0]).toEqual({ n: 0 });
      // The timeouts never outlive their transaction: another client of the pooler finds the server's defaults.
      const neighbour = new pg.Client({ connectionString: pooler.url(name) });
      await neighbour.connect();
      const settings = await neighbour.query<{ statement: string; lock: string }>(
        "select current_setting('statement_timeout') as statement, current_setting('lock_timeout') as lock",
      );
      await neighbour.end();
      expect(settings.rows[0]).toEqual({ statement: '0', lock: '0' });
      expect((await served.inject({ url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await holder.end();
    }
  });
});
