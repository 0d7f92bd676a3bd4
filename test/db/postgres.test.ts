import { sql } from 'kysely';
import { migrations as landed } from '../../src/db/migrations/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import pg from 'pg';
import { MIGRATION_LOCK_KEY } from '../../src/db/migrate.ts';
import { expectErrorBody, startInstanceOn } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/webhook-receiver.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import { ENGINE, freshDatabase, holdWriteLock, query } from '../helpers/test-database.ts';

/** How a server may start on PostgreSQL: directly, or behind a transaction pooler, migrating on PostgreSQL itself. */
const STARTING = [
  ['on a direct connection', {}],
  ['behind a transaction pooler, migrating on DATABASE_MIGRATION_URL', { DATABASE_POOLER: 'transaction' }],
] as const;
const startingEnv = (env: (typeof STARTING)[number][1], databaseUrl: string) =>
  'DATABASE_POOLER' in env ? { ...env, DATABASE_MIGRATION_URL: databaseUrl } : {};

// PostgreSQL only: what SQLite gives for free (one writer at a time) has to be built here.
describe.runIf(ENGINE === 'postgres')('on PostgreSQL', { timeout: 180_000 }, () => {
  it('pages skip no pet while others are being created: a pet committed late still comes after the cursor', async ({ makeApp }) => {
    const t = await makeApp({ RATE_LIMIT_PER_MINUTE: '0', DATABASE_POOL_SIZE: '6' });
    // Test-only: an insert of a pet named "slow…" sleeps after drawing its id, inside its transaction.
    await query(
      t.databaseUrl,
      `create function slow_pet() returns trigger language plpgsql as $$ begin perform pg_sleep(2); return new; end $$;
       create trigger slow_pet after insert on pets for each row when (new.name like 'slow%') execute function slow_pet();`,
    );
    const activity = (where: string) =>
      query<{ n: string }>(t.databaseUrl, `select count(*) as n from pg_stat_activity where datname = current_database() and ${where}`);
    const waitFor = (check: () => Promise<boolean>) => expect.poll(check, { timeout: 60_000, interval: 20 }).toBe(true);
    const page = async (after?: string) => {
      const { body } = await graphql(
        t,
        'query($after: String) { pets(first: 50, after: $after) { nodes { id } pageInfo { endCursor } } }',
        after ? { after } : {},
      );
      const pets = body.data?.pets as { nodes: { id: string }[]; pageInfo: { endCursor: string | null } };
      return { ids: pets.nodes.map((n) => Number(n.id)), cursor: pets.pageInfo.endCursor ?? after };
    };

    const slow = t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'slow', categoryId: 1 } });
    await waitFor(async () => Number((await activity("wait_event = 'PgSleep'"))[0]?.n) === 1);
    const fast = t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'fast', categoryId: 1 } });
    // The second insert has either committed (it drew its id without waiting) or waits its turn on the table's lock.
    await waitFor(async () => (await t.count('pets')) > 0 || Number((await activity("wait_event = 'advisory'"))[0]?.n) === 1);

    // A front end polling for new pets reads now, and later resumes from the cursor it got.
    const first = await page();
    const [slowPet, fastPet] = [(await slow).json() as { id: number }, (await fast).json() as { id: number }];
    const resumed = await page(first.cursor);
    const seen = [...first.ids, ...resumed.ids];
    expect(seen.sort((a, b) => a - b)).toEqual([slowPet.id, fastPet.id].sort((a, b) => a - b));
  });

  it('moves every id sequence past anything drawn before, once, at the first insert on a new timeline (a promoted standby)', async ({
    t,
  }) => {
    const pet = async (name: string) =>
      (await t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1 } })).json().id as number;
    const message = async () =>
      Number(((await t.call({ method: 'POST', url: '/messages', payload: { message: 'm' } })).json().id as string).slice(4));
    const before = { pet: await pet('before'), message: await message() };
    // What a promotion does to the database: its WAL goes on a timeline other than the one its ids were drawn on.
    await sql`update id_timeline set timeline = timeline - 1`.execute(t.db);
    const after = await Promise.all(['a', 'b', 'c', 'd'].map((name) => pet(name)));
    const afterMessage = await message();
    expect(Math.min(...after)).toBeGreaterThan(before.pet + 1_000_000);
    expect(new Set(after).size).toBe(4);
    // Moved once, not once per insert: the four drew in a row.
    expect(Math.max(...after) - Math.min(...after)).toBe(3);
    expect(afterMessage).toBeGreaterThan(before.message + 1_000_000);
    expect(await pet('next')).toBe(Math.max(...after) + 1);
  });

  it('follows the timeline on every table with an id: a table added later gets the trigger in its own migration', async ({ t }) => {
    const { rows } = await sql<{ table: string; follows: boolean }>`
      select c.table_name as table, exists (
        select 1 from pg_trigger tr join pg_proc p on p.oid = tr.tgfoid
        where tr.tgrelid = (quote_ident(c.table_name))::regclass and p.proname = 'ids_follow_timeline') as follows
      from information_schema.columns c where c.table_schema = current_schema() and c.is_identity = 'YES'`.execute(t.db);
    expect(rows.length).toBeGreaterThan(3);
    // Give it `create trigger <table>_ids_follow_timeline before insert on <table> for each statement execute function ids_follow_timeline()`.
    expect(rows.filter((row) => !row.follows).map((row) => row.table)).toEqual([]);
  });

  it('several servers starting at once on an empty database migrate once and all serve; one makes the first key', async ({
    databaseUrl,
    serve,
  }) => {
    const servers = await Promise.all([1, 2, 3].map(() => serve({ DATABASE_URL: databaseUrl })));
    for (const server of servers) expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);
    const migrations = await query<{ name: string }>(databaseUrl, 'select name from kysely_migration order by name');
    // Every migration once, in order: three servers started at once took turns.
    expect(migrations.map((m) => m.name)).toEqual(Object.keys(landed.postgres));
    expect(servers.filter((s) => /First start: created account "default"/.test(s.output()))).toHaveLength(1);
    expect(await query(databaseUrl, 'select name from accounts')).toEqual([{ name: 'default' }]);
    expect(await query<{ n: string }>(databaseUrl, 'select count(*) as n from api_keys')).toEqual([{ n: '1' }]);
  });

  it.for(STARTING)(
    "a server starting %s while another's migration outlasts both timeouts waits for it, then serves",
    async ([, env], { databaseUrl }) => {
      // Another process migrating: it holds the migration lock for 2 s, four times either timeout.
      const holder = new pg.Client({ connectionString: databaseUrl });
      await holder.connect();
      await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
      const released = setTimeout(() => void holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`), 2_000);
      try {
        const app = await startInstanceOn(databaseUrl, {
          DATABASE_LOCK_TIMEOUT_MS: '500',
          DATABASE_STATEMENT_TIMEOUT_MS: '500',
          ...startingEnv(env, databaseUrl),
        });
        try {
          expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
        } finally {
          await app.close();
        }
      } finally {
        clearTimeout(released);
        await holder.end();
      }
    },
  );

  it.for(STARTING)(
    'a server starting %s reads where its schema stands however short its timeouts: a read kept waiting outlasts both, then it serves',
    async ([, env], { makeApp }) => {
      const t = await makeApp({ RATE_LIMIT_PER_MINUTE: '0' });
      // Kysely's migration table kept from readers for 1.5 s, five times either timeout: as a busy
      // machine can keep the catalog reads of a start waiting. A start is no request.
      const holder = new pg.Client({ connectionString: t.databaseUrl });
      await holder.connect();
      await holder.query('begin; lock table kysely_migration in access exclusive mode');
      const released = setTimeout(() => void holder.query('rollback'), 1_500);
      try {
        const app = await startInstanceOn(t.databaseUrl, {
          DATABASE_LOCK_TIMEOUT_MS: '300',
          DATABASE_STATEMENT_TIMEOUT_MS: '300',
          RATE_LIMIT_PER_MINUTE: '0',
          ...startingEnv(env, t.databaseUrl),
        });
        try {
          expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
          // Its requests still run under the 300 ms timeouts.
          const lock = await holdWriteLock(t.databaseUrl, 'pets');
          try {
            const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: t.auth, payload: { name: 'x', categoryId: 1 } });
            expect(res.statusCode).toBe(503);
            expectErrorBody(res, 'SERVICE_UNAVAILABLE');
          } finally {
            await lock.release();
          }
        } finally {
          await app.close();
        }
      } finally {
        clearTimeout(released);
        await holder.end();
      }
    },
  );

  it('answers 503 with Retry-After, never 500, when a statement runs out of time or the pool has no connection', async ({ makeApp }) => {
    const t = await makeApp({
      DATABASE_STATEMENT_TIMEOUT_MS: '300',
      DATABASE_LOCK_TIMEOUT_MS: '5000',
      DATABASE_POOL_SIZE: '2',
      DATABASE_CONNECT_TIMEOUT_MS: '300',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    await t.call({ url: '/v1/pets' });
    const lock = await holdWriteLock(t.databaseUrl, 'pets');
    try {
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) => t.call({ method: 'POST', url: '/v1/pets', payload: { name: `late-${i}`, categoryId: 1 } })),
      );
      for (const res of answers) {
        expect(res.statusCode).toBe(503);
        expectErrorBody(res, 'SERVICE_UNAVAILABLE');
        expect(res.headers['retry-after']).toBe('1');
      }
    } finally {
      await lock.release();
    }
    expect(await t.count('pets')).toBe(0);
    // Recovers by itself once the lock is gone. Polled, not asserted once: with 300 ms timeouts a busy
    // machine can time out a write that waits on nothing, and that answer must be a 503 too, storing nothing.
    await waitFor(
      async () => {
        const res = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'after', categoryId: 1 } });
        if (res.statusCode !== 201) expectErrorBody(res, 'SERVICE_UNAVAILABLE');
        return res.statusCode === 201;
      },
      30_000,
      'a write to succeed after the lock is released',
    );
    expect(await t.count('pets')).toBe(1);
  });

  it('answers 503 while the database is down, says so on /readyz, and recovers by itself when it is back; no SQL or password anywhere', async ({
    makeApp,
    tmp,
  }) => {
    const fresh = await freshDatabase(tmp);
    const proxy = await startTcpProxy('127.0.0.1', Number(new URL(fresh.url).port || 5432));
    try {
      const through = new URL(fresh.url);
      through.port = String(proxy.port);
      through.username = through.username || 'postgres';
      through.password = 'hunter2-not-needed';
      const lines: string[] = [];
      const t = await makeApp(
        { DATABASE_URL: through.toString(), DATABASE_CONNECT_TIMEOUT_MS: '1000', LOG_LEVEL: 'debug' },
        { logStream: { write: (line) => void lines.push(line) } },
      );
      expect((await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Before', categoryId: 1 } })).statusCode).toBe(201);

      await proxy.down();
      const answers = [
        await t.call({ url: '/v1/pets' }),
        await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'During', categoryId: 1 } }),
        await t.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer psk_${'N'.repeat(40)}` } }),
      ];
      for (const res of answers) {
        expect(res.statusCode).toBe(503);
        expect(expectErrorBody(res, 'SERVICE_UNAVAILABLE').message).toBe('The database is unavailable; retry shortly.');
      }
      expectErrorBody(await t.app.inject({ url: '/readyz' }), 'NOT_READY');

      await proxy.up();
      await expect.poll(async () => (await t.app.inject({ url: '/readyz' })).statusCode, { timeout: 60_000, interval: 100 }).toBe(200);
      expect((await t.call({ url: '/v1/pets' })).json()).toMatchObject([{ name: 'Before' }]);

      await t.close();
      const everything = [...answers.map((res) => res.body), ...lines].join('\n');
      expect(everything).not.toMatch(/hunter2|postgres:\/\/|select |insert into/i);
    } finally {
      await proxy.close();
      await fresh.drop();
    }
  });
});
