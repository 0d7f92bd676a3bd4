import { createApiKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const FIELDS = 'id prefix name scopes createdAt lastUsedAt revokedAt';

describe('own keys over GraphQL: myKeys, createKey, revokeKey', () => {
  it('creates a key shown once that works, lists it without a secret, and matches REST', async ({ makeApp }) => {
    const t = await makeApp();
    const { res, body } = await graphql(t, `mutation { createKey(input: { name: "front end" }) { ${FIELDS} key } }`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = body.data?.createKey as Record<string, string | null>;
    expect(created).toMatchObject({ name: 'front end', lastUsedAt: null, revokedAt: null });
    expect(created.key).toMatch(/^psk_[A-Za-z0-9]{40}$/);

    const mine = await graphql(t, `{ myKeys { ${FIELDS} } }`, undefined, bearer(created.key ?? ''));
    expect(mine.res.statusCode).toBe(200);
    expect(mine.res.body).not.toContain(created.key);
    const keys = mine.body.data?.myKeys as Record<string, unknown>[];
    expect(keys.map((k) => k.name)).toEqual([null, 'front end']);

    // The same records as REST's, ids as GraphQL IDs.
    const rest = (await t.call({ url: '/v1/keys' })).json() as Record<string, unknown>[];
    expect(keys).toEqual(rest.map((k) => ({ ...k, id: String(k.id) })));
  });

  it('answers a keys-only credential the key records whole, as REST does: listed, made and revoked', async ({ makeApp }) => {
    const t = await makeApp();
    const keysOnly = bearer((await createApiKey(t.db, 'tester', { scopes: ['petstore:keys'] })).key);
    const listed = await graphql(t, `{ myKeys { ${FIELDS} } }`, undefined, keysOnly);
    expect(listed.body.errors).toBeUndefined();
    const rest = (await t.call({ url: '/v1/keys', headers: keysOnly })).json() as Record<string, unknown>[];
    expect(listed.body.data?.myKeys).toEqual(rest.map((k) => ({ ...k, id: String(k.id) })));

    const made = await graphql(t, `mutation { createKey(input: { name: "spare" }) { ${FIELDS} key } }`, undefined, keysOnly);
    expect(made.body.errors).toBeUndefined();
    const id = (made.body.data?.createKey as { id: string }).id;
    const revoked = await graphql(t, `mutation { revokeKey(id: "${id}") { ${FIELDS} } }`, undefined, keysOnly);
    expect(revoked.res.statusCode).toBe(200);
    expect(revoked.body.errors).toBeUndefined();
    expect(revoked.body.data?.revokeKey).toMatchObject({ id, name: 'spare', lastUsedAt: null, revokedAt: expect.any(String) });
  });

  it('refuses the calling key on the next operation once it revokes itself', async ({ makeApp }) => {
    const t = await makeApp();
    const [self] = (await graphql(t, '{ myKeys { id } }')).body.data?.myKeys as { id: string }[];
    const { body } = await graphql(t, 'mutation($id: ID!) { revokeKey(id: $id) { id revokedAt } }', { id: self?.id });
    expect(body.errors).toBeUndefined();
    expect((body.data?.revokeKey as { revokedAt: string }).revokedAt).toMatch(/^\d{4}-/);
    const next = await graphql(t, '{ myKeys { id } }');
    expect(next.res.statusCode).toBe(401);
    expect(next.body.errors?.[0]?.extensions).toEqual({ code: 'UNAUTHORIZED', status: 401 });
  });

  it("answers another account's key as API_KEY_NOT_FOUND and leaves it working", async ({ t }) => {
    const other = await createApiKey(t.db, 'graph-neighbour');
    const { body } = await graphql(t, 'mutation($id: ID!) { revokeKey(id: $id) { id } }', { id: String(other.id) });
    expect(body.data).toBeNull();
    expect(body.errors?.[0]).toMatchObject({
      message: `API key ${other.id} could not be found.`,
      path: ['revokeKey'],
      extensions: { code: 'API_KEY_NOT_FOUND', status: 404 },
    });
    expect((await graphql(t, '{ myKeys { id } }', undefined, bearer(other.key))).res.statusCode).toBe(200);
  });

  it('refuses createKey under an Idempotency-Key, storing nothing', async ({ t }) => {
    const before = await t.count('api_keys');
    const { body } = await graphql(t, 'mutation { createKey { id key } }', undefined, { ...t.auth, 'idempotency-key': 'gql-1' });
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
    expect(body.errors?.[0]?.message).toMatch(/createKey does not take an Idempotency-Key/);
    expect(await t.count('api_keys')).toBe(before);
    expect(await t.count('idempotency_keys')).toBe(0);
  });

  it('caps active keys at 10 with API_KEY_LIMIT_REACHED', async ({ makeApp }) => {
    const t = await makeApp();
    const aliases = Array.from({ length: 10 }, (_, i) => `k${i}: createKey { id }`).join(' ');
    const { body } = await graphql(t, `mutation { ${aliases} }`);
    const errors = body.errors ?? [];
    expect(errors.map((e) => e.path?.[0])).toEqual(['k9']);
    expect(errors[0]?.extensions).toEqual({ code: 'API_KEY_LIMIT_REACHED', status: 409 });
    expect(((await graphql(t, '{ myKeys { id } }')).body.data?.myKeys as unknown[]).length).toBe(10);
  });
});
