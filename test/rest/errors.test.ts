import { describe, expect, it } from '../helpers/fixtures.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import { holdWriteLock } from '../helpers/test-database.ts';

describe('every error is the Error body', () => {
  it('unknown route: 404 NOT_FOUND, with or without a key', async ({ makeApp }) => {
    const t = await makeApp();
    for (const res of [await t.app.inject({ url: '/v2/pets' }), await t.call({ url: '/v1/nothing-here' })]) {
      expect(res.statusCode).toBe(404);
      expectErrorBody(res, 'NOT_FOUND');
    }
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
    } finally {
      await other.release();
    }
    const list = await t.call({ url: '/v1/pets' });
    expect(list.json()).toEqual([]);
    expect((await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Free', categoryId: 1 } })).statusCode).toBe(201);
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
