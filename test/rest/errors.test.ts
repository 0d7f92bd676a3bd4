import { describe, expect, it } from '../helpers/fixtures.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import { InsertQueryNode } from 'kysely';
import type { KyselyPlugin } from 'kysely';
import { graphql } from '../helpers/graphql.ts';
import { holdWriteLock } from '../helpers/test-database.ts';

describe('every error is the Error body', () => {
  it('unknown route: 404 NOT_FOUND, with or without a key', async ({ makeApp }) => {
    const t = await makeApp();
    for (const res of [await t.app.inject({ url: '/v2/pets' }), await t.call({ url: '/v1/nothing-here' })]) {
      expect(res.statusCode).toBe(404);
      expectErrorBody(res, 'NOT_FOUND');
    }
  });

  it('the message quickstart asked for under /v1 (as a client with one base URL would): 404 saying where it lives', async ({ t }) => {
    const res = await t.call({ method: 'POST', url: '/v1/messages', payload: { message: 'hi' } });
    expect(expectErrorBody(res, 'NOT_FOUND').message).toBe(
      'No route POST /v1/messages. The message quickstart lives outside /v1: /messages.',
    );
    const one = await t.call({ url: '/v1/messages/msg_1' });
    expect(expectErrorBody(one, 'NOT_FOUND').message).toMatch(/lives outside \/v1: \/messages\/msg_1\.$/);
  });

  it('a JSON body with a key that reaches a prototype: 400 naming the key, not "invalid JSON", storing nothing', async ({ t }) => {
    for (const payload of [
      '{"name":"a","categoryId":1,"__proto__":{"admin":true}}',
      '{"name":"a","categoryId":1,"constructor":{"prototype":{}}}',
    ]) {
      const res = await t.call({ method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json' }, payload });
      expect(expectErrorBody(res, 'VALIDATION_FAILED').message).toMatch(
        /may not hold a key named "__proto__", nor a "constructor" object with a "prototype" key/,
      );
    }
    expect((await t.call({ url: '/v1/pets' })).json()).toEqual([]);
  });

  it('a body that is not UTF-8: 400 INVALID_JSON, nothing stored with U+FFFD in place of the bytes', async ({ t }) => {
    const payload = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('","categoryId":1}')]);
    for (const url of ['/v1/pets', '/messages']) {
      const res = await t.call({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
      expect(expectErrorBody(res, 'INVALID_JSON').message).toBe('The request body is not valid UTF-8; send JSON in UTF-8.');
    }
    expect((await t.call({ url: '/v1/pets' })).json()).toEqual([]);
    // The same name in UTF-8 is stored as sent.
    const utf8 = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'café', categoryId: 1 } });
    expect(utf8.json().name).toBe('café');
    expect((await t.call({ url: `/v1/pets/${utf8.json().id as number}` })).json().name).toBe('café');
  });

  it('a body nested deeper than 64 levels: 400 before anything walks it, on every route that takes JSON', async ({ t }) => {
    const deep = (n: number) => `{"name":"a","categoryId":1,"x":${'['.repeat(n)}${']'.repeat(n)}}`;
    for (const url of ['/v1/pets', '/messages', '/graphql']) {
      const res = await t.call({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: deep(20_000) });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('The JSON nests deeper than 64 levels of objects and arrays.');
    }
    // 64 levels are JSON like any other (refused here for the unknown member, not for its depth).
    const res = await t.call({ method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json' }, payload: deep(63) });
    expect(expectErrorBody(res, 'VALIDATION_FAILED').message).not.toMatch(/nests/);
  });

  it('wrong method on a known route: 405 METHOD_NOT_ALLOWED with Allow', async ({ makeApp }) => {
    const t = await makeApp();
    const del = await t.call({ method: 'DELETE', url: '/v1/pets' });
    expect(del.statusCode).toBe(405);
    expectErrorBody(del, 'METHOD_NOT_ALLOWED');
    expect(del.headers.allow).toBe('GET, HEAD, POST');
    const put = await t.call({ method: 'PUT', url: '/v1/pets/1' });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
    const get = await t.call({ method: 'GET', url: '/messages' });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('an unexpected failure: 500 INTERNAL_ERROR that shows no stack, SQL or path; /readyz says 503', async ({ makeApp }) => {
    const t = await makeApp();
    // Closing the database under a running app is the failure no client can cause on purpose.
    await t.db.destroy();
    const res = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'A', categoryId: 1 } });
    expect(res.statusCode).toBe(500);
    const body = expectErrorBody(res, 'INTERNAL_ERROR');
    expect(body.message).toBe('An unexpected error occurred.');
    expect(res.body).not.toMatch(/at |insert|select|\/|\\|sqlite/i);
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expectErrorBody(ready, 'NOT_READY');
  });
});

describe('a database locked by another writer', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After after the lock timeout, storing nothing, then recovers', async ({ makeApp }) => {
    const t = await makeApp({ DATABASE_LOCK_TIMEOUT_MS: '500' });
    const other = await holdWriteLock(t.databaseUrl, 'pets');
    try {
      const res = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Blocked', categoryId: 1 } });
      expect(res.statusCode).toBe(503);
      expectErrorBody(res, 'SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).not.toMatch(/SQLITE|insert|lock|pets/i);
      // The same database error on GraphQL: the same code, status and words.
      const viaGraphQL = await t.call({
        method: 'POST',
        url: '/graphql',
        payload: { query: 'mutation { createPet(input: { name: "Blocked", categoryId: 1 }) { id } }' },
      });
      const error = (viaGraphQL.json() as { errors: { message: string; extensions: unknown }[] }).errors[0];
      expect(error).toMatchObject({ message: res.json().message, extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } });
      // And the same HTTP answer: 503 with Retry-After, whatever the media type, so a client or balancer retries it as REST's.
      for (const accept of ['application/json', 'application/graphql-response+json']) {
        const again = await t.call({
          method: 'POST',
          url: '/graphql',
          headers: { accept },
          payload: { query: 'mutation { createPet(input: { name: "Blocked", categoryId: 1 }) { id } }' },
        });
        expect([again.statusCode, again.headers['retry-after']], accept).toEqual([503, '1']);
      }
    } finally {
      await other.release();
    }
    const list = await t.call({ url: '/v1/pets' });
    expect(list.json()).toEqual([]);
    expect((await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Free', categoryId: 1 } })).statusCode).toBe(201);
  });

  it('keeps answering probes and reads while a write waits for the lock, then stores the write', async ({ makeApp }) => {
    let started: () => void = () => undefined;
    const insertStarted = new Promise<void>((resolve) => (started = resolve));
    const noticeInserts: KyselyPlugin = {
      transformQuery: ({ node }) => {
        if (InsertQueryNode.is(node)) started();
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    // A long lock timeout: the write must still be waiting when the reads below are answered.
    const t = await makeApp({ DATABASE_LOCK_TIMEOUT_MS: '30000' }, { wrapDb: (db) => db.withPlugin(noticeInserts) });
    const other = await holdWriteLock(t.databaseUrl, 'pets');
    let written: string | null = null;
    const write = t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Waited', categoryId: 1 } }).then((res) => {
      written = `${res.statusCode}`;
      return res;
    });
    try {
      await insertStarted;
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
      expect((await t.call({ url: '/v1/pets' })).json()).toEqual([]);
      expect((await graphql(t, '{ pets { nodes { id } } }')).body).toEqual({ data: { pets: { nodes: [] } } });
      expect(written).toBeNull();
    } finally {
      await other.release();
    }
    expect((await write).statusCode).toBe(201);
    expect((await t.call({ url: '/v1/pets' })).json()).toMatchObject([{ name: 'Waited' }]);
  });
});

describe('probes', () => {
  it('/healthz and /readyz answer without a key', async ({ makeApp }) => {
    const t = await makeApp();
    const health = await t.app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });
});
