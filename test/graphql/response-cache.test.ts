import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { total } from '../helpers/exposition.ts';
import { scrapeOf } from '../helpers/scrape.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { startInstanceOn } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { redisEnv, TEST_REDIS_URL } from '../helpers/test-redis.ts';
import { snapshotDatabase } from '../helpers/database-snapshot.ts';

const PETS = '{ pets(first: 100) { nodes { id name } } }';
const names = (body: { data?: Record<string, unknown> | null }) =>
  (body.data?.pets as { nodes: { name: string }[] }).nodes.map((p) => p.name);
const hits = async (t: TestApp) => total(await t.scrape(), 'petstore_response_cache_lookups_total', { result: 'hit' });
const addPet = (t: TestApp, name: string, headers = t.auth) =>
  t.app.inject({ method: 'POST', url: '/v1/pets', headers, payload: { name, categoryId: 1 } });

/** Another instance of the server on `t`'s database (and its Redis, when `env` names one). */
const secondInstance = (t: TestApp, env: Record<string, string> = {}) => startInstanceOn(t.databaseUrl, env);

describe('GraphQL response cache', () => {
  it('answers a repeated query from the cache, and a pet created over REST at once from the database', async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    await addPet(t, 'Rex');
    const first = await graphql(t, PETS);
    expect(names(first.body)).toEqual(['Rex']);
    const again = await graphql(t, PETS);
    expect(again.res.body).toBe(first.res.body);
    expect(again.res.headers['content-type']).toBe(first.res.headers['content-type']);
    expect(again.res.headers['cache-control']).toBe('no-store');
    expect(await hits(t)).toBe(1);
    // A client asking for a fresh run (Cache-Control: no-cache) gets one.
    await graphql(t, PETS, undefined, { ...t.auth, 'cache-control': 'no-cache' });
    expect(await hits(t)).toBe(1);
    const ops = total(await t.scrape(), 'graphql_server_operation_duration_seconds_count', { graphql_operation_type: 'query' });
    expect(ops).toBe(2);
    // …whose answer is kept like any other (only no-store keeps nothing).
    await graphql(t, PETS);
    expect(await hits(t)).toBe(2);

    expect((await addPet(t, 'Fido')).statusCode).toBe(201);
    expect(names((await graphql(t, PETS)).body)).toEqual(['Rex', 'Fido']);
    expect(await hits(t)).toBe(2);
  });

  it('never answers across credentials that may do different things, in one account', async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    const reader = { authorization: `Bearer ${(await createApiKey(t.db, 'tester', { scopes: ['petstore:read'] })).key}` };
    const other = { authorization: `Bearer ${(await createApiKey(t.db, 'tester', { scopes: ['petstore:read'] })).key}` };
    await graphql(t, PETS);
    await graphql(t, PETS, undefined, reader);
    // The key that may do everything and the reading key each ran it: no hit between them.
    expect(await hits(t)).toBe(0);
    // Another key of the account that may do the same shares the reading key's answer.
    await graphql(t, PETS, undefined, other);
    expect(await hits(t)).toBe(1);
  });

  it('never keeps a mutation or an answer with errors', async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    const create = 'mutation { createPet(input: { name: "Rex", categoryId: 1 }) { id } }';
    const [a, b] = [await graphql(t, create), await graphql(t, create)];
    expect(a.body.data).not.toEqual(b.body.data);
    for (let i = 0; i < 2; i++)
      expect((await graphql(t, '{ pet(id: "999999") { id } }')).body.errors?.[0]?.extensions?.code).toBe('PET_NOT_FOUND');
    expect(await hits(t)).toBe(0);
  });

  it("keeps answers per account: another account's same query gets its own orders", async ({ makeApp }) => {
    const t = await makeApp();
    const pet = (await addPet(t, 'Rex')).json() as { id: number };
    await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: pet.id } });
    const ORDERS = '{ orders { nodes { petId } } pets { nodes { orders { id } } } }';
    const mine = await graphql(t, ORDERS);
    expect((mine.body.data?.orders as { nodes: unknown[] }).nodes).toHaveLength(1);
    await graphql(t, ORDERS);
    const { key } = await createApiKey(t.db, 'someone-else');
    const theirs = await graphql(t, ORDERS, undefined, { authorization: `Bearer ${key}` });
    expect(theirs.body.data).toEqual({ orders: { nodes: [] }, pets: { nodes: [{ orders: [] }] } });
  });

  it('serves queries over GET with an ETag, 304 while unchanged, and the new answer after a write', async ({ makeApp }) => {
    const t = await makeApp();
    await addPet(t, 'Rex');
    const url = `/graphql?query=${encodeURIComponent(PETS)}`;
    const headers = { ...t.auth, accept: 'application/graphql-response+json' };
    const first = await t.app.inject({ url, headers });
    expect(first.statusCode).toBe(200);
    const tag = String(first.headers.etag);
    expect(tag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(String(first.headers.vary)).toMatch(/Authorization/);
    const again = await t.app.inject({ url, headers: { ...headers, 'if-none-match': tag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await graphql(t, 'mutation { createPet(input: { name: "Fido", categoryId: 1 }) { id } }');
    const after = await t.app.inject({ url, headers: { ...headers, 'if-none-match': tag } });
    expect(after.statusCode).toBe(200);
    expect(names(after.json())).toEqual(['Rex', 'Fido']);
    // A mutation is never run over GET, tag or not.
    const mutation = await t.app.inject({
      url: `/graphql?query=${encodeURIComponent('mutation { createPet(input: { name: "X", categoryId: 1 }) { id } }')}`,
      headers,
    });
    expect(mutation.statusCode).toBe(405);
  });

  it('serves a trusted document by its id over GET (a short URL) with an ETag; the same text is still refused in production', async ({
    makeApp,
    tmp,
  }) => {
    const id = `sha256:${createHash('sha256').update(PETS).digest('hex')}`;
    const manifest = join(tmp, 'persisted-documents.json');
    writeFileSync(manifest, JSON.stringify({ [id]: PETS }));
    const t = await makeApp({ NODE_ENV: 'production', GRAPHQL_TRUSTED_DOCUMENTS: manifest, METRICS_PORT: '0' });
    await addPet(t, 'Rex');
    const url = `/graphql?documentId=${id}`;
    const first = await t.app.inject({ url, headers: t.auth });
    expect(first.statusCode).toBe(200);
    expect(names(first.json())).toEqual(['Rex']);
    const tag = String(first.headers.etag);
    expect((await t.app.inject({ url, headers: { ...t.auth, 'if-none-match': tag } })).statusCode).toBe(304);
    expect(names((await t.app.inject({ url, headers: t.auth })).json())).toEqual(['Rex']);
    expect(await hits(t)).toBe(1);
    // The document's text, kept under its id, is not an answer to the text: production runs ids only.
    const asText = await graphql(t, PETS);
    expect(asText.res.statusCode).toBe(400);
    expect(await hits(t)).toBe(1);
  });

  it('gives a key that was revoked nothing from the cache, even where its instance still trusts it', async ({ makeApp }) => {
    const a = await makeApp({ METRICS_PORT: '0' });
    const b = await secondInstance(a);
    try {
      const { key, id } = await createApiKey(a.db, 'soon-revoked');
      const auth = { authorization: `Bearer ${key}` };
      await addPet(a, 'Rex');
      await graphql(a, PETS, undefined, auth);
      await graphql(a, PETS, undefined, auth);
      expect(await hits(a)).toBe(1);
      // Revoked through the other instance: `a`'s key cache may trust it until its next poll.
      expect((await b.inject({ method: 'DELETE', url: `/v1/keys/${id}`, headers: auth })).statusCode).toBe(200);
      // The versions read of this very request sees the revocation: it is refused, not served.
      const after = await graphql(a, PETS, undefined, auth);
      expect(after.res.statusCode).toBe(401);
      expect(after.body.errors?.[0]?.message).toBe('The API key is invalid or has been revoked.');
      expect(await hits(a)).toBe(1);
    } finally {
      await b.close();
    }
  });

  it('never serves one instance a stale answer after a write acknowledged by another', async ({ makeApp }) => {
    const a = await makeApp();
    const b = await secondInstance(a);
    try {
      await addPet(a, 'Rex');
      await graphql(a, PETS);
      await graphql(a, PETS);
      expect(
        (await b.inject({ method: 'POST', url: '/v1/pets', headers: a.auth, payload: { name: 'Fido', categoryId: 1 } })).statusCode,
      ).toBe(201);
      expect(names((await graphql(a, PETS)).body)).toEqual(['Rex', 'Fido']);
    } finally {
      await b.close();
    }
  });

  it.runIf(TEST_REDIS_URL)('shares answers between instances through Redis, fresh after a write through either', async ({ makeApp }) => {
    const env = { ...redisEnv(), METRICS_PORT: '0' };
    const a = await makeApp(env);
    const b = await secondInstance(a, env);
    try {
      await addPet(a, 'Rex');
      await graphql(a, PETS);
      const viaB = () =>
        b.inject({ method: 'POST', url: '/graphql', headers: { ...a.auth, 'content-type': 'application/json' }, payload: { query: PETS } });
      // `a` keeps its answer without waiting for Redis: `b` finds it once the write lands.
      let hitsOfB = 0;
      for (let tries = 0; tries < 200 && hitsOfB === 0; tries++) {
        expect(names((await viaB()).json())).toEqual(['Rex']);
        hitsOfB = total(await scrapeOf(b), 'petstore_response_cache_lookups_total', {
          result: 'hit',
        });
      }
      expect(hitsOfB).toBeGreaterThan(0);
      await addPet(a, 'Fido');
      expect(names((await viaB()).json())).toEqual(['Rex', 'Fido']);
      expect(names((await graphql(a, PETS)).body)).toEqual(['Rex', 'Fido']);
    } finally {
      await b.close();
    }
  });

  it('counts and logs a cached answer as any other: its RateLimit headers, its access line, and 429 once the budget is spent', async ({
    makeApp,
  }) => {
    const lines: string[] = [];
    const logStream = { write: (line: string) => void lines.push(line) };
    const t = await makeApp({ METRICS_PORT: '0', RATE_LIMIT_PER_MINUTE: '3', LOG_LEVEL: 'info' }, { logStream });
    const answers = [await graphql(t, PETS), await graphql(t, PETS), await graphql(t, PETS)];
    expect(await hits(t)).toBe(2);
    expect(answers.map((a) => String(a.res.headers.ratelimit).replace(/;t=\d+$/, ''))).toEqual([
      '"per-key";r=2',
      '"per-key";r=1',
      '"per-key";r=0',
    ]);
    const refused = await graphql(t, PETS);
    expect(refused.res.statusCode).toBe(429);
    expect(await hits(t)).toBe(2);
    const access = lines.map((l) => JSON.parse(l) as { msg: string; url?: string; status?: number }).filter((l) => l.msg === 'request');
    expect(access.map((l) => [l.url, l.status])).toEqual([
      ['/graphql', 200],
      ['/graphql', 200],
      ['/graphql', 200],
      ['/graphql', 429],
    ]);
  });

  it('is off with RESPONSE_CACHE=false: no lookups, no tags', async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0', RESPONSE_CACHE: 'false' });
    await graphql(t, PETS);
    await graphql(t, PETS);
    const text = await t.scrape();
    expect(total(text, 'petstore_response_cache_lookups_total')).toBe(0);
    const get = await t.app.inject({ url: `/graphql?query=${encodeURIComponent(PETS)}`, headers: t.auth });
    expect(get.statusCode).toBe(200);
    expect(get.headers.etag).toBeUndefined();
  });

  it("revalidates with 304 for Node's fetch, which sends Cache-Control: no-cache with If-None-Match", async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    await addPet(t, 'Rex');
    const url = `${await t.listen()}/graphql?query=${encodeURIComponent(PETS)}`;
    const headers = { ...t.auth, accept: 'application/graphql-response+json' };
    const first = await fetch(url, { headers });
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag') ?? '';
    expect(tag).toMatch(/^W\/"/);
    await first.text();
    const again = await fetch(url, { headers: { ...headers, 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    // A reload (no-cache) runs the query afresh where the tag does not match, and still tags its answer.
    const reload = await fetch(url, { headers: { ...headers, 'cache-control': 'no-cache' } });
    expect(reload.status).toBe(200);
    expect(reload.headers.get('etag')).toBe(tag);
    expect(names((await reload.json()) as { data: Record<string, unknown> })).toEqual(['Rex']);
  });

  it("moves a query's tag only with what its answer reads: the caller's orders, not another account's", async ({ makeApp }) => {
    const t = await makeApp();
    const [mine, theirs] = [(await addPet(t, 'Rex')).json() as { id: number }, (await addPet(t, 'Tom')).json() as { id: number }];
    const tagOf = async (query: string) => {
      const res = await t.app.inject({ url: `/graphql?query=${encodeURIComponent(query)}`, headers: t.auth });
      expect(res.statusCode).toBe(200);
      return String(res.headers.etag);
    };
    const ORDERS = '{ orders { nodes { id status } } }';
    const WITH_PETS = '{ orders { nodes { id pet { name } } } }';
    const [orders, withPets] = [await tagOf(ORDERS), await tagOf(WITH_PETS)];
    const { key } = await createApiKey(t.db, 'another-tenant');
    const other = { authorization: `Bearer ${key}` };
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: other, payload: { petId: theirs.id } })).statusCode,
    ).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: '/messages', headers: other, payload: { message: 'hi' } })).statusCode).toBe(201);
    expect(await tagOf(ORDERS)).toBe(orders);
    // Pets are everyone's: a pet's status changed, so an answer showing pets could have.
    expect(await tagOf(WITH_PETS)).not.toBe(withPets);
    await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: mine.id } });
    expect(await tagOf(ORDERS)).not.toBe(orders);
  });

  it.runIf(TEST_REDIS_URL)('never serves one deployment the answers of another sharing its Redis prefix', async ({ makeApp }) => {
    // Two new databases: the same account and key ids, the same writes so far.
    const env = { ...redisEnv(), METRICS_PORT: '0' };
    const [a, b] = [await makeApp(env), await makeApp(env)];
    await addPet(a, 'Rex');
    await keptInRedis(a, PETS);
    await addPet(b, 'Other');
    expect(names((await graphql(b, PETS)).body)).toEqual(['Other']);
  });

  it.runIf(TEST_REDIS_URL)('never serves an answer from before a restore for the data written after it', async ({ databaseUrl, tmp }) => {
    const env = { ...redisEnv(), METRICS_PORT: '0' };
    let app = await startInstanceOn(databaseUrl, { ...env, SIGNUP: 'open' });
    try {
      const signedUp = await app.inject({ method: 'POST', url: '/signup', payload: { account: 'restorer' } });
      const auth = { authorization: `Bearer ${signedUp.json().apiKey.key}` };
      const add = (name: string) => app.inject({ method: 'POST', url: '/v1/pets', headers: auth, payload: { name, categoryId: 1 } });
      const query = () =>
        app.inject({ method: 'POST', url: '/graphql', headers: { ...auth, 'content-type': 'application/json' }, payload: { query: PETS } });
      expect((await add('Rex')).statusCode).toBe(201);
      const backup = snapshotDatabase(databaseUrl, tmp);
      expect((await add('Fido')).statusCode).toBe(201);
      // Kept in Redis, which outlives the restore.
      expect(names((await query()).json())).toEqual(['Rex', 'Fido']);
      for (let tries = 0; tries < 200 && (await hitsOf(app)) === 0; tries++) await query();
      expect(await hitsOf(app)).toBeGreaterThan(0);
      await app.close();
      await backup.restore();
      app = await startInstanceOn(databaseUrl, env);
      expect((await add('Tom')).statusCode).toBe(201);
      expect(names((await query()).json())).toEqual(['Rex', 'Tom']);
    } finally {
      await app.close();
    }
  });
});

/** Asks `query` through `t` until it is answered from Redis: what `t` keeps is written there without waiting. */
async function keptInRedis(t: TestApp, query: string): Promise<void> {
  for (let tries = 0; tries < 200 && (await hits(t)) === 0; tries++) await graphql(t, query);
  expect(await hits(t)).toBeGreaterThan(0);
}

const hitsOf = async (app: FastifyInstance) =>
  total(await scrapeOf(app), 'petstore_response_cache_lookups_total', {
    result: 'hit',
  });
