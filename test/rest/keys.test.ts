import { createApiKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import { graphql } from '../helpers/graphql.ts';
import type { TestApp } from '../helpers/test-app.ts';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const create = (t: TestApp, key: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/v1/keys', headers: { ...bearer(key), ...headers }, ...(payload ? { payload } : {}) });
const list = (t: TestApp, key: string) => t.app.inject({ url: '/v1/keys', headers: bearer(key) });
const revoke = (t: TestApp, key: string, id: number | string) =>
  t.app.inject({ method: 'DELETE', url: `/v1/keys/${id}`, headers: bearer(key) });

describe('own keys over REST: /v1/keys', () => {
  it('creates a key shown once, which works, and is listed without its secret', async ({ makeApp }) => {
    const t = await makeApp();
    const res = await create(t, t.key, { name: 'ci deploys' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json();
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'id', 'key', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scopes']);
    expect(created).toMatchObject({ name: 'ci deploys', lastUsedAt: null, revokedAt: null });
    expect(created.key).toMatch(/^psk_[A-Za-z0-9]{40}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);

    expect((await t.app.inject({ url: '/v1/pets', headers: bearer(created.key) })).statusCode).toBe(200);

    const listed = await list(t, created.key);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(created.key);
    expect(listed.body).not.toContain(t.key);
    const keys = listed.json() as Record<string, unknown>[];
    expect(keys.map((k) => k.name)).toEqual([null, 'ci deploys']);
    expect(keys[1]).toEqual({ ...created, key: undefined, lastUsedAt: null });
    for (const key of keys)
      expect(Object.keys(key).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scopes']);
  });

  it('refuses scopes given as one string (400, nothing stored), where GraphQL coerces it to a list of one', async ({ t }) => {
    const keys = await t.count('api_keys');
    expectErrorBody(await create(t, t.key, { scopes: 'petstore:read' }), 'VALIDATION_FAILED');
    expect(await t.count('api_keys')).toBe(keys);
    const { body } = await graphql(t, 'mutation { createKey(input: { scopes: "petstore:read" }) { scopes } }');
    expect(body.data).toEqual({ createKey: { scopes: ['petstore:read'] } });
  });

  it('takes no body at all as a key without a name', async ({ t }) => {
    const res = await create(t, t.key);
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBeNull();
    await revoke(t, t.key, res.json().id);
  });

  it('refuses the calling key from the next request on, once it revokes itself', async ({ makeApp }) => {
    const t = await makeApp();
    const spare = (await create(t, t.key)).json();
    const self = (await list(t, t.key)).json()[0];
    // A warm cache: the key was verified just now, and must still be refused next.
    expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(200);

    const res = await revoke(t, t.key, self.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().revokedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expectErrorBody(await t.call({ url: '/v1/pets' }), 'UNAUTHORIZED');
    expectErrorBody(await list(t, t.key), 'UNAUTHORIZED');

    // The other key still works and sees the revocation; revoking again changes nothing.
    const again = await revoke(t, spare.key, self.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(res.json());
    expect((await list(t, spare.key)).json()[0].revokedAt).toBe(res.json().revokedAt);
  });

  it("answers another account's key as absent (404) and leaves it working", async ({ t }) => {
    const other = await createApiKey(t.db, 'neighbour');
    const res = await revoke(t, t.key, other.id);
    expect(res.statusCode).toBe(404);
    expectErrorBody(res, 'API_KEY_NOT_FOUND');
    expect(res.body).toBe((await revoke(t, t.key, 987654)).body.replace('987654', String(other.id)));
    expect((await t.app.inject({ url: '/v1/pets', headers: bearer(other.key) })).statusCode).toBe(200);
    expect((await list(t, other.key)).json()).toHaveLength(1);
  });

  it('caps active keys per account at 10 (409, nothing stored); revoking one makes room', async ({ makeApp }) => {
    const t = await makeApp();
    for (let i = 2; i <= 10; i++) expect((await create(t, t.key, { name: `k${i}` })).statusCode).toBe(201);
    const before = await t.count('api_keys');
    const refused = await create(t, t.key, { name: 'eleventh' });
    expect(refused.statusCode).toBe(409);
    expect(expectErrorBody(refused, 'API_KEY_LIMIT_REACHED').message).toMatch(/10 active keys/);
    expect(await t.count('api_keys')).toBe(before);

    const victim = (await list(t, t.key)).json()[5];
    await revoke(t, t.key, victim.id);
    expect((await create(t, t.key, { name: 'eleventh' })).statusCode).toBe(201);
    expect((await create(t, t.key)).statusCode).toBe(409);
  });

  it('holds the cap when many creations race', async ({ makeApp }) => {
    const t = await makeApp();
    const answers = await Promise.all(Array.from({ length: 15 }, () => create(t, t.key)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(9);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(6);
    expect((await list(t, t.key)).json()).toHaveLength(10);
  });

  it.for([
    ['an empty name', { name: '' }, "Field 'name' must not be empty."],
    ['a blank name', { name: '   ' }, "Field 'name' must contain a non-blank character."],
    ['a name of 65 characters', { name: 'x'.repeat(65) }, "Field 'name' must be at most 64 characters long."],
    ['a number as name', { name: 5 }, "Field 'name' must be a string."],
    ['an unknown field', { name: 'a', expiresAt: '2030-01-01' }, "Field 'expiresAt' is not allowed."],
    ['an unknown scope', { name: 'a', scopes: ['all'] }, "Field 'scopes.0' must be one of: petstore:read, petstore:write, petstore:keys."],
  ] as const)('refuses %s with 400 and stores nothing', async ([, payload, message], { t }) => {
    const before = await t.count('api_keys');
    const res = await create(t, t.key, payload);
    expect(expectErrorBody(res, 'VALIDATION_FAILED').message).toBe(message);
    expect(await t.count('api_keys')).toBe(before);
  });

  it('refuses an Idempotency-Key (its answer holds a secret it cannot keep) and stores nothing', async ({ t }) => {
    const before = await t.count('api_keys');
    const res = await create(t, t.key, { name: 'retry me' }, { 'idempotency-key': 'k-1' });
    expect(expectErrorBody(res, 'VALIDATION_FAILED').message).toMatch(/does not take an Idempotency-Key/);
    expect(await t.count('api_keys')).toBe(before);
    expect(await t.count('idempotency_keys')).toBe(0);
  });

  it.for([
    ['a key id that is not a number', 'abc', "Path parameter 'keyId' must be an integer written in plain decimal digits."],
    ['key id 0', '0', "Path parameter 'keyId' must be at least 1."],
  ] as const)('refuses %s with 400', async ([, id, message], { t }) => {
    expect(expectErrorBody(await revoke(t, t.key, id), 'VALIDATION_FAILED').message).toBe(message);
  });

  it('needs a valid key for every route', async ({ t }) => {
    for (const request of [
      { method: 'POST' as const, url: '/v1/keys', payload: {} },
      { method: 'GET' as const, url: '/v1/keys' },
      { method: 'DELETE' as const, url: '/v1/keys/1' },
    ]) {
      expectErrorBody(await t.app.inject(request), 'UNAUTHORIZED');
    }
  });
});
