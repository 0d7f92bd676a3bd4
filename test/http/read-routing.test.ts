import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { callTool } from '../helpers/mcp.ts';
import { startPrimary, startStandby } from '../helpers/pg-cluster.ts';
import type { PgCluster } from '../helpers/pg-cluster.ts';
import { ENGINE } from '../helpers/test-database.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { redisEnv, TEST_REDIS_URL } from '../helpers/test-redis.ts';

// A primary and a streaming replica of the test's own (initdb, pg_basebackup -R), the replica's
// replay paused so that it stays behind: what a reader is shown then says where it read. The
// bound is a minute, so the paused replica stays current enough for the whole test.

const faces = (app: FastifyInstance, key: string) => {
  const authorization = `Bearer ${key}`;
  const asApp = { app, auth: { authorization } } as unknown as TestApp;
  return {
    rest: async () => {
      const res = await app.inject({ method: 'GET', url: '/v1/pets?limit=100', headers: { authorization } });
      return (res.json() as { name: string }[]).map((pet) => pet.name);
    },
    graphqlGet: async () => {
      const res = await app.inject({ method: 'GET', url: '/graphql?query={pets(first:100){nodes{name}}}', headers: { authorization } });
      return (res.json() as { data: { pets: { nodes: { name: string }[] } } }).data.pets.nodes.map((pet) => pet.name);
    },
    graphqlPost: async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { authorization, 'cache-control': 'no-cache' },
        payload: { query: '{ pets(first: 100) { nodes { name } } }' },
      });
      return (res.json() as { data: { pets: { nodes: { name: string }[] } } }).data.pets.nodes.map((pet) => pet.name);
    },
    mcp: async () => {
      const { data } = await callTool(asApp, 'list_pets', { first: 100 });
      return ((data?.pets as { nodes: { name: string }[] } | undefined)?.nodes ?? []).map((pet) => pet.name);
    },
    // A gateway resolving references: the first 50 ids, what exists of them (the rest PET_NOT_FOUND, null).
    entities: async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { authorization, 'cache-control': 'no-cache' },
        payload: {
          query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Pet { name } } }',
          variables: { r: Array.from({ length: 50 }, (_, i) => ({ __typename: 'Pet', id: String(i + 1) })) },
        },
      });
      const entities = (res.json() as { data?: { _entities?: ({ name: string } | null)[] } }).data?._entities ?? [];
      return entities.flatMap((pet) => (pet ? [pet.name] : []));
    },
  };
};

/** A primary and its replica, caught up, then replay paused and a pet added on the primary alone. */
async function replicaBehind(clusters: PgCluster[]) {
  const primary = await startPrimary();
  clusters.push(primary);
  const standby = await startStandby(primary, { name: 'replica' });
  clusters.push(standby);
  await primary.query('create database petstore');
  const env = {
    DATABASE_URL: primary.url('petstore'),
    DATABASE_READ_URLS: standby.url('petstore'),
    DATABASE_READ_MAX_LAG_MS: '60000',
    DATABASE_POOL_SIZE: '4',
    LOG_LEVEL: 'silent',
    MESSAGE_DELIVERY: 'false',
    RATE_LIMIT_PER_MINUTE: '0',
    GRAPHQL_FEDERATION: 'true',
  };
  const open = async (more: Record<string, string> = {}) => {
    const config = loadConfig({ ...env, ...more });
    const database = openDatabase(config.database);
    return { app: await createApp({ config, database }), db: database.db };
  };
  // Migrations run once, by the first app; the replica then has everything before it stops replaying.
  const pause = async () => {
    await expect
      .poll(async () => {
        const [at] = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
        const [replayed] = await standby.query<{ caught: boolean }>(`select pg_last_wal_replay_lsn() >= '${at?.lsn}'::pg_lsn as caught`);
        return replayed?.caught;
      })
      .toBe(true);
    await standby.query('select pg_wal_replay_pause()');
    await primary.query(
      "insert into pets (name, category_id, status, created_at) values ('unreplayed', 1, 'available', '2026-11-28T00:00:00.000Z')",
      'petstore',
    );
  };
  return { open, pause };
}

const readerSees = async (reader: ReturnType<typeof faces>) => ({
  rest: await reader.rest(),
  graphqlGet: await reader.graphqlGet(),
  graphqlPost: await reader.graphqlPost(),
  mcp: await reader.mcp(),
  entities: await reader.entities(),
});

/** Until every face of `reader` reads the replica (once the instance has judged it current): the pet added behind its back is not there. */
const untilOnReplica = (reader: ReturnType<typeof faces>) =>
  expect
    .poll(async () => Object.values(await readerSees(reader)).every((names) => !names.includes('unreplayed')), { timeout: 20_000 })
    .toBe(true);

describe.runIf(ENGINE === 'postgres')('reads from a streaming replica (DATABASE_READ_URLS)', { timeout: 120_000 }, () => {
  it('a reader is answered by the replica on every face; a writer reads its own writes on every face, from the primary', async () => {
    const clusters: PgCluster[] = [];
    let app: FastifyInstance | undefined;
    try {
      const { open, pause } = await replicaBehind(clusters);
      const opened = await open();
      app = opened.app;
      const reader = faces(app, (await createApiKey(opened.db, 'reader')).key);
      const writerKey = (await createApiKey(opened.db, 'writer')).key;
      const writer = faces(app, writerKey);
      const writerAuth = { authorization: `Bearer ${writerKey}` };
      await pause();
      await untilOnReplica(reader);

      // A writer writes on each face (with and without an Idempotency-Key) and at once reads on every face: all of it, and the pet behind the replica's back.
      const rest = await app.inject({ method: 'POST', url: '/v1/pets', headers: writerAuth, payload: { name: 'by-rest', categoryId: 1 } });
      expect(rest.statusCode).toBe(201);
      const keyed = await app.inject({
        method: 'POST',
        url: '/v1/pets',
        headers: { ...writerAuth, 'idempotency-key': 'rr-1' },
        payload: { name: 'by-rest-keyed', categoryId: 1 },
      });
      expect(keyed.statusCode).toBe(201);
      const graphql = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: writerAuth,
        payload: { query: 'mutation { createPet(input: { name: "by-graphql", categoryId: 1 }) { id name } }' },
      });
      expect(graphql.json()).toMatchObject({ data: { createPet: { name: 'by-graphql' } } });
      const tool = await callTool({ app, auth: writerAuth } as unknown as TestApp, 'add_pet', { name: 'by-mcp', categoryId: 1 });
      expect(tool.data).toMatchObject({ createPet: { name: 'by-mcp' } });
      const written = ['unreplayed', 'by-rest', 'by-rest-keyed', 'by-graphql', 'by-mcp'];
      for (const [face, read] of Object.entries(writer)) expect([face, await read()]).toEqual([face, written]);
      const one = await app.inject({ method: 'GET', url: `/v1/pets/${(rest.json() as { id: number }).id}`, headers: writerAuth });
      expect(one.statusCode).toBe(200);

      // The reader still reads the replica, which has none of it: the writer's reads were not answered there by chance.
      const after = await readerSees(reader);
      expect(after).toEqual({ rest: [], graphqlGet: [], graphqlPost: [], mcp: [], entities: [] });
    } finally {
      await app?.close();
      for (const cluster of clusters) cluster.remove();
    }
  });

  it.runIf(TEST_REDIS_URL !== '')(
    "several instances sharing Redis: a write on one, and the next read on another is the primary's",
    async () => {
      const clusters: PgCluster[] = [];
      const apps: FastifyInstance[] = [];
      try {
        const { open, pause } = await replicaBehind(clusters);
        const shared = redisEnv();
        // A Redis that has kept marks all along (without its `marks` key, a Redis new or emptied marks everyone for the bound, a minute here).
        const redis = new Redis(shared.REDIS_URL, { keyPrefix: shared.REDIS_KEY_PREFIX });
        await redis.set('marks', 1, 'PX', 120_000);
        redis.disconnect();
        const first = await open(shared);
        apps.push(first.app);
        const second = await open(shared);
        apps.push(second.app);
        const writerKey = (await createApiKey(first.db, 'writer')).key;
        await pause();
        // The writer has not written yet: it reads the replica, as any reader does.
        await untilOnReplica(faces(second.app, writerKey));
        const created = await first.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { authorization: `Bearer ${writerKey}` },
          payload: { name: 'on-the-first', categoryId: 1 },
        });
        expect(created.statusCode).toBe(201);
        const written = ['unreplayed', 'on-the-first'];
        for (const [face, read] of Object.entries(faces(second.app, writerKey))) expect([face, await read()]).toEqual([face, written]);
      } finally {
        for (const app of apps) await app.close();
        for (const cluster of clusters) cluster.remove();
      }
    },
  );
});
