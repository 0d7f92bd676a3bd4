import { brotliDecompressSync } from 'node:zlib';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { total } from '../helpers/exposition.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { scrapeOf } from '../helpers/scrape.ts';
import { startInstanceOn } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { redisEnv, TEST_REDIS_URL } from '../helpers/test-redis.ts';

const lookups = async (t: TestApp) => {
  const text = await t.scrape();
  return {
    hits: total(text, 'petstore_response_cache_lookups_total', { result: 'hit' }),
    misses: total(text, 'petstore_response_cache_lookups_total', { result: 'miss' }),
  };
};
const get = (t: TestApp, url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers: { ...t.auth, ...headers } });
const addPet = (t: TestApp, name: string) => t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1 } });
const ENV = { METRICS_PORT: '0' };
const bearer = async (t: TestApp, name: string) => ({ authorization: `Bearer ${(await createApiKey(t.db, name)).key}` });

/** What a client sees of an answer: its status, body and the headers the route and the conditional GET write. */
const seen = (res: Awaited<ReturnType<typeof get>>) => ({
  status: res.statusCode,
  body: res.body,
  type: res.headers['content-type'],
  link: res.headers.link,
  etag: res.headers.etag,
  cacheControl: res.headers['cache-control'],
  vary: res.headers.vary,
});

/** Headers that differ from one request to the next, whoever answers it. */
const PER_REQUEST = new Set(['date', 'x-request-id', 'ratelimit', 'ratelimit-policy']);
const sameForEveryRequest = (res: Awaited<ReturnType<typeof get>>) =>
  Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_REQUEST.has(name)));

describe("REST lists' answers kept (the response cache)", () => {
  it('carries every header the route itself answers with, on each list: a header a route adds is kept or this fails', async ({
    makeApp,
  }) => {
    const t = await makeApp(ENV);
    const pet = (await addPet(t, 'Ada')).json() as { id: number };
    await addPet(t, 'Bo');
    await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: pet.id } });
    for (const url of ['/v1/pets?limit=1', '/v1/store/orders']) {
      const run = await get(t, url, { 'cache-control': 'no-cache' });
      const kept = await get(t, url);
      expect(kept.body).toBe(run.body);
      expect(sameForEveryRequest(kept)).toEqual(sameForEveryRequest(run));
    }
    expect(await lookups(t)).toEqual({ hits: 2, misses: 0 });
  });

  it('answers a repeated page from what it kept, byte for byte with its Link, and a write through either face at once', async ({
    makeApp,
  }) => {
    const t = await makeApp(ENV);
    for (const name of ['Ada', 'Bo', 'Cy']) await addPet(t, name);
    const first = await get(t, '/v1/pets?limit=2');
    expect(first.headers.link).toMatch(/rel="next"/);
    expect(await lookups(t)).toEqual({ hits: 0, misses: 1 });
    const again = await get(t, '/v1/pets?limit=2');
    expect(seen(again)).toEqual(seen(first));
    expect(await lookups(t)).toEqual({ hits: 1, misses: 1 });
    // HEAD is served from what the GET kept: the same headers, no body.
    const head = await get(t, '/v1/pets?limit=2', {}, 'HEAD');
    expect({ ...seen(head), body: first.body }).toEqual(seen(first));
    expect(head.body).toBe('');
    expect(await lookups(t)).toEqual({ hits: 2, misses: 1 });

    await addPet(t, 'Dee');
    const afterRest = await get(t, '/v1/pets?limit=100');
    expect(afterRest.json().map((p: { name: string }) => p.name)).toEqual(['Ada', 'Bo', 'Cy', 'Dee']);
    expect((await get(t, '/v1/pets?limit=100')).body).toBe(afterRest.body);
    const { body } = await graphql(t, 'mutation { createPet(input: { name: "Eve", categoryId: 2 }) { id } }');
    expect(body.errors).toBeUndefined();
    const afterGraphQL = await get(t, '/v1/pets?limit=100');
    expect(afterGraphQL.json().at(-1)).toMatchObject({ name: 'Eve' });
    expect(afterGraphQL.headers.etag).not.toBe(afterRest.headers.etag);
    expect(await lookups(t)).toEqual({ hits: 3, misses: 3 });
  });

  it('runs a request that asks for a fresh answer (no-cache, max-age=0) and keeps it; keeps nothing of a no-store one', async ({
    makeApp,
  }) => {
    const t = await makeApp(ENV);
    await addPet(t, 'Ada');
    await get(t, '/v1/pets', { 'cache-control': 'no-store' });
    await get(t, '/v1/pets', { 'cache-control': 'max-age=0' });
    expect(await lookups(t)).toEqual({ hits: 0, misses: 0 });
    const kept = await get(t, '/v1/pets', { 'cache-control': 'no-cache' });
    expect(await lookups(t)).toEqual({ hits: 0, misses: 0 });
    expect((await get(t, '/v1/pets')).body).toBe(kept.body);
    expect(await lookups(t)).toEqual({ hits: 1, misses: 0 });
    // A matching tag still gets its 304 with no-cache (browsers send both), and no lookup.
    expect((await get(t, '/v1/pets', { 'cache-control': 'no-cache', 'if-none-match': String(kept.headers.etag) })).statusCode).toBe(304);
    expect(await lookups(t)).toEqual({ hits: 1, misses: 0 });
  });

  it("keeps each account's answers its own: another account's orders are never served", async ({ makeApp }) => {
    const t = await makeApp(ENV);
    const [alice, bob] = [await bearer(t, 'alice'), await bearer(t, 'bob')];
    const pet = (await addPet(t, 'Rex')).json() as { id: number };
    await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: alice, payload: { petId: pet.id } });
    for (let round = 0; round < 2; round++) {
      expect((await get(t, '/v1/store/orders', alice)).json()).toHaveLength(1);
      expect((await get(t, '/v1/store/orders', bob)).json()).toEqual([]);
      // A page of pets is the same for both, and still each account's own entry.
      await get(t, '/v1/pets', alice);
      await get(t, '/v1/pets', bob);
    }
    expect(await lookups(t)).toEqual({ hits: 4, misses: 4 });
  });

  it.runIf(TEST_REDIS_URL)(
    'shares a page, its Link too, between instances through Redis; fresh after a write through either',
    async ({ makeApp }) => {
      const env = { ...ENV, ...redisEnv() };
      const a = await makeApp(env);
      const b = await startInstanceOn(a.databaseUrl, env);
      try {
        for (const name of ['Ada', 'Bo', 'Cy']) await addPet(a, name);
        const first = await get(a, '/v1/pets?limit=2');
        const viaB = () => b.inject({ url: '/v1/pets?limit=2', headers: a.auth });
        // `a` keeps its answer without waiting for Redis: `b` finds it once the write lands.
        let hitsOfB = 0;
        for (let tries = 0; tries < 200 && hitsOfB === 0; tries++) {
          expect(seen(await viaB())).toEqual(seen(first));
          hitsOfB = total(await scrapeOf(b), 'petstore_response_cache_lookups_total', { result: 'hit' });
        }
        expect(hitsOfB).toBeGreaterThan(0);
        await b.inject({ method: 'POST', url: '/v1/pets', headers: a.auth, payload: { name: 'Dee', categoryId: 1 } });
        const after = await get(a, '/v1/pets?limit=100');
        expect(after.json().at(-1)).toMatchObject({ name: 'Dee' });
      } finally {
        await b.close();
      }
    },
  );

  it('counts and logs a kept answer as any other: its RateLimit headers, its access line, and 429 once the budget is spent', async ({
    makeApp,
  }) => {
    const lines: string[] = [];
    const logStream = { write: (line: string) => void lines.push(line) };
    const t = await makeApp({ ...ENV, RATE_LIMIT_PER_MINUTE: '4', LOG_LEVEL: 'info' }, { logStream });
    await addPet(t, 'Ada');
    const answers = [await get(t, '/v1/pets'), await get(t, '/v1/pets'), await get(t, '/v1/pets')];
    expect(await lookups(t)).toEqual({ hits: 2, misses: 1 });
    expect(answers.map((a) => String(a.headers.ratelimit).replace(/;t=\d+$/, ''))).toEqual([
      '"per-key";r=2',
      '"per-key";r=1',
      '"per-key";r=0',
    ]);
    const refused = await get(t, '/v1/pets');
    expect(refused.statusCode).toBe(429);
    expect(await lookups(t)).toEqual({ hits: 2, misses: 1 });
    const access = lines.map((l) => JSON.parse(l) as { msg: string; url?: string; status?: number }).filter((l) => l.msg === 'request');
    expect(access.map((l) => [l.url, l.status])).toEqual([
      ['/v1/pets', 201],
      ['/v1/pets', 200],
      ['/v1/pets', 200],
      ['/v1/pets', 200],
      ['/v1/pets', 429],
    ]);
  });

  it('never keeps or serves an error: a bad cursor is its 400, a missing key its 401, each time', async ({ makeApp }) => {
    const t = await makeApp(ENV);
    await addPet(t, 'Ada');
    for (let round = 0; round < 2; round++) {
      const bad = await get(t, '/v1/pets?cursor=nope');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('INVALID_CURSOR');
      const keyless = await t.app.inject({ url: '/v1/pets' });
      expect(keyless.statusCode).toBe(401);
    }
    expect(await lookups(t)).toEqual({ hits: 0, misses: 0 });
  });

  it('keeps an answer as the route made it, before compression: each client gets it in the coding it asks for', async ({ makeApp }) => {
    const t = await makeApp(ENV);
    for (let i = 0; i < 100; i++) await addPet(t, `pet-with-a-name-long-enough-to-compress-${i}`);
    const br = await get(t, '/v1/pets?limit=100', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(await lookups(t)).toEqual({ hits: 0, misses: 1 });
    // Kept as the route made it: served plain to one client, compressed again for another.
    const plain = await get(t, '/v1/pets?limit=100');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(brotliDecompressSync(br.rawPayload).toString());
    const again = await get(t, '/v1/pets?limit=100', { 'accept-encoding': 'br' });
    expect(await lookups(t)).toEqual({ hits: 2, misses: 1 });
    expect(again.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(again.rawPayload).toString()).toBe(plain.body);
    expect(again.headers.link).toBe(br.headers.link);
    expect(again.headers.vary).toBe(br.headers.vary);
  });
});

describe('REST lists with the response cache off (RESPONSE_CACHE=false)', () => {
  it('runs every request, and still tags it', async ({ makeApp }) => {
    const t = await makeApp({ ...ENV, RESPONSE_CACHE: 'false' });
    await addPet(t, 'Ada');
    const first = await get(t, '/v1/pets');
    const again = await get(t, '/v1/pets');
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(await lookups(t)).toEqual({ hits: 0, misses: 0 });
  });
});
