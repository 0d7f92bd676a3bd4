import { vi } from 'vitest';
import { petstore } from '../helpers/cli.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { ENGINE, query } from '../helpers/test-database.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { graphql } from '../helpers/graphql.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

const newPet = async (t: TestApp) =>
  (await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'for-order', categoryId: 1 } })).json().id as number;

describe('Idempotency-Key', () => {
  const routes = [
    { url: '/v1/pets', table: 'pets' as const, payload: async (_t: TestApp) => ({ name: 'Once', categoryId: 1 }) },
    { url: '/messages', table: 'messages' as const, payload: async (_t: TestApp) => ({ message: 'once' }) },
    { url: '/v1/store/orders', table: 'orders' as const, payload: async (t: TestApp) => ({ petId: await newPet(t) }) },
  ];

  it.for(routes)(
    'POST $url: a retry with the same key and body returns the original answer and creates nothing',
    async ({ url, table, payload }, { t }) => {
      const body = await payload(t);
      const headers = { 'idempotency-key': `retry-${url}` };
      const first = await t.call({ method: 'POST', url, payload: body, headers });
      expect(first.statusCode).toBe(201);
      const before = await t.count(table);
      const again = await t.call({ method: 'POST', url, payload: body, headers });
      expect(again.statusCode).toBe(201);
      expect(again.body).toBe(first.body);
      expect(again.headers.location).toBe(first.headers.location);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await t.count(table)).toBe(before);
    },
  );

  it.for(routes)('POST $url: the same key with a different body is 422 IDEMPOTENCY_KEY_REUSED', async ({ url, payload }, { t }) => {
    const headers = { 'idempotency-key': `reuse-${url}` };
    expect((await t.call({ method: 'POST', url, payload: await payload(t), headers })).statusCode).toBe(201);
    const other = await t.call({
      method: 'POST',
      url,
      payload: {
        ...(await payload(t)),
        ...(url === '/messages' ? { message: 'different' } : {}),
        ...(url === '/v1/pets' ? { name: 'Different' } : {}),
      },
      headers,
    });
    expect(other.statusCode).toBe(422);
    expectErrorBody(other, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('knows a retry whose JSON has the same members in another order: the same request, replayed', async ({ t }) => {
    const headers = { 'content-type': 'application/json', 'idempotency-key': 'reordered' };
    const send = (payload: string) => t.call({ method: 'POST', url: '/v1/pets', headers, payload });
    const first = await send('{"name":"Ordered","categoryId":1,"status":"pending"}');
    expect(first.statusCode).toBe(201);
    const before = await t.count('pets');
    const again = await send('{ "status": "pending", "categoryId": 1, "name": "Ordered" }');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await t.count('pets')).toBe(before);
    // GraphQL's body too, nested members included.
    const gql = { ...t.auth, ...headers, 'idempotency-key': 'reordered-graphql' };
    const mutation = 'mutation($p: NewPetInput!) { createPet(input: $p) { id } }';
    const sent = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: gql,
      payload: JSON.stringify({ query: mutation, variables: { p: { name: 'Nested', categoryId: 2 } } }),
    });
    const retried = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: gql,
      payload: JSON.stringify({ variables: { p: { categoryId: 2, name: 'Nested' } }, query: mutation }),
    });
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body).toBe(sent.body);
  });

  it('keeps keys per account: another account may use the same key', async ({ t }) => {
    const headers = { 'idempotency-key': 'shared-key' };
    const mine = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Mine', categoryId: 1 }, headers });
    const other = await createApiKey(t.db, 'idem-other');
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/v1/pets',
      payload: { name: 'Theirs', categoryId: 1 },
      headers: { ...headers, authorization: `Bearer ${other.key}` },
    });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(mine.json().id);
  });

  it('does not keep failures: after a 400, the same key works with a corrected body', async ({ t }) => {
    const headers = { 'idempotency-key': 'fix-and-retry' };
    expect((await t.call({ method: 'POST', url: '/v1/pets', payload: { name: '', categoryId: 1 }, headers })).statusCode).toBe(400);
    expect((await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Fixed', categoryId: 1 }, headers })).statusCode).toBe(201);
  });

  it('lets only one of concurrent requests with one key run; the others wait for its answer (or get 409)', async ({ t }) => {
    const before = await t.count('pets');
    const headers = { 'idempotency-key': 'racing' };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Race', categoryId: 1 }, headers })),
    );
    expect(await t.count('pets')).toBe(before + 1);
    const created = results.filter((res) => res.statusCode === 201);
    expect(created.filter((res) => res.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(new Set(created.map((res) => res.body)).size).toBe(1);
    for (const res of results) if (res.statusCode !== 201) expectErrorBody(res, 'IDEMPOTENCY_KEY_IN_USE');
  });

  it('a GraphQL operation with an Idempotency-Key commits whole or not at all: an error undoes every field, and a retry runs as the first', async ({
    t,
  }) => {
    const sold = await newPet(t);
    await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: sold } });
    const [pets, orders] = [await t.count('pets'), await t.count('orders')];
    const mutation = `mutation { a: createPet(input: { name: "kept", categoryId: 1 }) { id } b: placeOrder(input: { petId: "${sold}" }) { id } }`;
    const headers = { ...t.auth, 'idempotency-key': 'gql-partial' };
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await graphql(t, mutation, undefined, headers);
      // The answer shows nothing done (a non-null field failed, so data is null), and nothing was.
      expect(answer.body).toEqual({
        data: null,
        errors: [expect.objectContaining({ extensions: { code: 'PET_NOT_AVAILABLE', status: 409 } })],
      });
      expect(answer.res.headers['idempotent-replayed']).toBeUndefined();
      expect([await t.count('pets'), await t.count('orders')]).toEqual([pets, orders]);
    }
    // The key is free again, as after a REST 4xx: the corrected operation runs once, then replays.
    const corrected = 'mutation { a: createPet(input: { name: "kept", categoryId: 1 }) { id } }';
    const first = await graphql(t, corrected, undefined, headers);
    expect(first.body.errors).toBeUndefined();
    const replayed = await graphql(t, corrected, undefined, headers);
    expect(replayed.res.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(first.body);
    expect(await t.count('pets')).toBe(pets + 1);
  });

  // Each on an app of its own: its first keyed write purges, so the next, within the minute, is
  // one the purge does not reach, and it is the claim that must find the key a day old.
  it('keeps a key 24 hours: a day-old key is forgotten, and purged', async ({ makeApp }) => {
    const t = await makeApp();
    const headers = { 'idempotency-key': 'yesterday' };
    expect((await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Day one', categoryId: 1 }, headers })).statusCode).toBe(201);
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 1000).toISOString();
    await t.db.updateTable('idempotency_keys').set({ created_at: dayAgo }).where('key', '=', 'yesterday').execute();
    const fresh = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Day two', categoryId: 1 }, headers });
    expect(fresh.statusCode).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    const oldRows = await t.db.selectFrom('idempotency_keys').select('key').where('created_at', '<', dayAgo.slice(0, 19)).execute();
    expect(oldRows).toEqual([]);
  });

  it('a day-old key sent twice at once runs once: one is the first, the other its replay', async ({ makeApp }) => {
    const t = await makeApp();
    const headers = { 'idempotency-key': 'day-old-race' };
    const send = () => t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Raced', categoryId: 1 }, headers });
    expect((await send()).statusCode).toBe(201);
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 1000).toISOString();
    await t.db.updateTable('idempotency_keys').set({ created_at: dayAgo }).where('key', '=', 'day-old-race').execute();
    const before = await t.count('pets');
    const answers = await Promise.all([send(), send()]);
    expect(answers.map((res) => res.statusCode)).toEqual([201, 201]);
    expect(answers.map((res) => res.headers['idempotent-replayed'] ?? 'first').sort()).toEqual(['first', 'true']);
    expect(answers[0]?.body).toBe(answers[1]?.body);
    expect(await t.count('pets')).toBe(before + 1);
  });

  it('refuses a malformed key with 400', async ({ t }) => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/pets',
      payload: { name: 'A', categoryId: 1 },
      headers: { 'idempotency-key': 'x'.repeat(256) },
    });
    expect(res.statusCode).toBe(400);
    expectErrorBody(res, 'VALIDATION_FAILED');
  });

  it('applies to GraphQL mutations: a replayed createPet returns the first result and creates nothing', async ({ t }) => {
    const mutation = 'mutation { createPet(input: { name: "GQL once", categoryId: 2 }) { id name } }';
    const headers = { ...t.auth, 'idempotency-key': 'gql-create' };
    const first = await graphql(t, mutation, undefined, headers);
    const before = await t.count('pets');
    const again = await graphql(t, mutation, undefined, headers);
    expect(again.body).toEqual(first.body);
    expect(again.res.headers['idempotent-replayed']).toBe('true');
    expect(await t.count('pets')).toBe(before);
    const different = await graphql(t, 'mutation { createPet(input: { name: "GQL other", categoryId: 2 }) { id } }', undefined, headers);
    expect(different.res.statusCode).toBe(422);
    expect(different.body.errors?.[0]?.extensions).toEqual({ code: 'IDEMPOTENCY_KEY_REUSED', status: 422 });
  });

  // An acknowledged write is stored once whatever carries its answer: a client that reads a
  // mutation's answer as a stream (graphql-sse, Apollo Client's multipart link) holds the same promise.
  it.for([
    { name: 'SSE', accept: 'text/event-stream' },
    { name: 'multipart', accept: 'multipart/mixed' },
  ])('a mutation answered as a stream ($name) is stored once, and its retry is a replay in the same form', async ({ accept }, { t }) => {
    const origin = await t.listen();
    const headers = { ...t.auth, 'content-type': 'application/json', accept, 'idempotency-key': `gql-stream-${accept}` };
    const body = JSON.stringify({ query: `mutation { createPet(input: { name: "Streamed ${accept}", categoryId: 2 }) { id name } }` });
    const send = async () => {
      const res = await fetch(`${origin}/graphql`, { method: 'POST', headers, body });
      const text = await res.text();
      const json = /\{"data".*\}/.exec(text)?.[0];
      return { res, text, result: json ? (JSON.parse(json) as { data?: { createPet?: { id: string } } }) : null };
    };
    const before = await t.count('pets');
    const first = await send();
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get('content-type')).toMatch(accept === 'text/event-stream' ? /^text\/event-stream/ : /^multipart\/mixed/);
    const id = first.result?.data?.createPet?.id;
    expect(id).toMatch(/^\d+$/);
    const stored = await t.db.selectFrom('pets').select(['id', 'name']).where('id', '=', Number(id)).execute();
    expect(stored).toEqual([{ id: Number(id), name: `Streamed ${accept}` }]);
    const again = await send();
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    expect(again.res.headers.get('content-type')).toBe(first.res.headers.get('content-type'));
    expect(again.result).toEqual(first.result);
    expect(await t.count('pets')).toBe(before + 1);
    // The same key asked for as JSON: the same answer, as JSON.
    const json = await graphql(t, `mutation { createPet(input: { name: "Streamed ${accept}", categoryId: 2 }) { id name } }`, undefined, {
      ...t.auth,
      'idempotency-key': `gql-stream-${accept}`,
    });
    expect(json.res.headers['idempotent-replayed']).toBe('true');
    expect(json.body).toEqual(first.result);
    expect(await t.count('pets')).toBe(before + 1);
  });

  it('applies to sendMessage and placeOrder, and leaves queries alone', async ({ t }) => {
    for (const [mutation, table] of [
      ['mutation { sendMessage(message: "gql once") { id } }', 'messages'],
      [`mutation { placeOrder(input: { petId: "${await newPet(t)}" }) { id } }`, 'orders'],
    ] as const) {
      const headers = { ...t.auth, 'idempotency-key': `gql-${table}` };
      const first = await graphql(t, mutation, undefined, headers);
      const before = await t.count(table);
      expect((await graphql(t, mutation, undefined, headers)).body).toEqual(first.body);
      expect(await t.count(table)).toBe(before);
    }
    const query = await graphql(t, '{ pets { totalCount } }', undefined, { ...t.auth, 'idempotency-key': 'gql-create' });
    expect(query.res.statusCode).toBe(200);
    expect(query.res.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe.runIf(ENGINE === 'postgres')('Idempotency-Key when the database goes away mid-request', { timeout: 120_000 }, () => {
  it('answers 503 with the Error body when the transaction cannot even be rolled back, and a retry runs once', async ({ makeApp }) => {
    const t = await makeApp();
    // Test-only: an insert that sleeps, so its connection can be ended under it (a primary crashing, say).
    await query(
      t.databaseUrl,
      `create function slow_insert() returns trigger language plpgsql as $$ begin perform pg_sleep(3); return new; end $$;
       create trigger slow_insert before insert on pets for each row execute function slow_insert();`,
    );
    const headers = { 'idempotency-key': 'connection-lost' };
    const sent = t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Lost', categoryId: 1 }, headers });
    await vi.waitFor(
      async () =>
        expect(
          (
            await query<{ ended: boolean }>(
              t.databaseUrl,
              "select pg_terminate_backend(pid) as ended from pg_stat_activity where wait_event = 'PgSleep'",
            )
          )[0]?.ended,
        ).toBe(true),
      { timeout: 30_000, interval: 50 },
    );
    const res = await sent;
    expect(res.statusCode).toBe(503);
    expectErrorBody(res, 'SERVICE_UNAVAILABLE');
    expect(res.headers.location).toBeUndefined();
    await query(t.databaseUrl, 'drop trigger slow_insert on pets');
    const retry = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Lost', categoryId: 1 }, headers });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await t.count('pets')).toBe(1);
  });
});

describe.runIf(ENGINE === 'postgres')('Idempotency-Key when the server dies', { timeout: 120_000 }, () => {
  it('between the work and the kept answer: neither is stored, and a retry runs once', async ({ databaseUrl, serve }) => {
    const env = { DATABASE_URL: databaseUrl, MESSAGE_DELIVERY: 'false', RATE_LIMIT_PER_MINUTE: '0' };
    const key = petstore(['keys', 'create', '--account', 'writer'], env).stdout.trim().split('\n').at(-1) ?? '';
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'dies-midway' };
    const server = await serve(env);
    // Test-only: keeping the answer sleeps, so the process can be killed after the pet is written and before the answer is kept.
    await query(
      databaseUrl,
      `create function slow_finish() returns trigger language plpgsql as $$ begin perform pg_sleep(2); return new; end $$;
       create trigger slow_finish before update on idempotency_keys for each row when (new.status_code is not null) execute function slow_finish();`,
    );
    const sleeping = async () =>
      Number((await query<{ n: string }>(databaseUrl, "select count(*) as n from pg_stat_activity where wait_event = 'PgSleep'"))[0]?.n);
    const body = JSON.stringify({ name: 'Once', categoryId: 1 });
    const first = rawRequest(server.origin, 'POST', '/v1/pets', headers, body).catch((error: NodeJS.ErrnoException) => error.code);
    await vi.waitFor(async () => expect(await sleeping()).toBe(1), { timeout: 60_000, interval: 20 });
    await server.stop('SIGKILL');
    expect(await first).toBe('ECONNRESET');
    await query(databaseUrl, 'drop trigger slow_finish on idempotency_keys');
    // The killed server's session ends once its sleep does; what it had not committed is gone.
    await vi.waitFor(async () => expect(await sleeping()).toBe(0), { timeout: 60_000, interval: 50 });
    expect(await query(databaseUrl, 'select name from pets')).toEqual([]);

    const restarted = await serve(env);
    const retry = await vi.waitFor(
      async () => {
        const res = await rawRequest(restarted.origin, 'POST', '/v1/pets', headers, body);
        expect(res.status).toBe(201);
        return res;
      },
      { timeout: 30_000, interval: 200 },
    );
    const replay = await rawRequest(restarted.origin, 'POST', '/v1/pets', headers, body);
    expect(replay.body).toBe(retry.body);
    expect(await query(databaseUrl, 'select name from pets')).toEqual([{ name: 'Once' }]);
  });
});
