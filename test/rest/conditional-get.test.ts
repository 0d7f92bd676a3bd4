import { createApiKey } from '../../src/services/api-keys/index.ts';
import { snapshotDatabase } from '../helpers/database-snapshot.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { expectErrorBody, startInstanceOn } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const get = (t: TestApp, url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers: { ...t.auth, ...headers } });
const addPet = (t: TestApp, name: string) => t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1 } });

describe('conditional GET on REST (RFC 9110 §13)', () => {
  it('tags a page of pets, answers a matching If-None-Match with an empty 304, and may be kept only by the caller', async ({ t }) => {
    await addPet(t, 'Rex');
    const first = await get(t, '/v1/pets');
    expect(first.statusCode).toBe(200);
    const tag = String(first.headers.etag);
    expect(tag).toMatch(/^W\/"[\w.*-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(String(first.headers.vary)).toMatch(/Authorization/);

    const again = await get(t, '/v1/pets', { 'if-none-match': tag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(tag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    // Weak comparison: the strong form and a list naming it match too; another tag does not.
    expect((await get(t, '/v1/pets', { 'if-none-match': tag.slice(2) })).statusCode).toBe(304);
    expect((await get(t, '/v1/pets', { 'if-none-match': `"nope", ${tag}` })).statusCode).toBe(304);
    expect((await get(t, '/v1/pets', { 'if-none-match': '"nope"' })).statusCode).toBe(200);
  });

  it('answers 200 with the new answer once a pet was written through either face', async ({ t }) => {
    await addPet(t, 'Rex');
    const before = await get(t, '/v1/pets?limit=100');
    const tag = String(before.headers.etag);
    await addPet(t, 'Fido');
    const afterRest = await get(t, '/v1/pets?limit=100', { 'if-none-match': tag });
    expect(afterRest.statusCode).toBe(200);
    expect(afterRest.json()).toHaveLength(before.json().length + 1);
    expect(afterRest.json().at(-1)).toMatchObject({ name: 'Fido' });
    const restTag = String(afterRest.headers.etag);
    expect(restTag).not.toBe(tag);

    const { body } = await graphql(t, 'mutation { createPet(input: { name: "Tom", categoryId: 2 }) { id } }');
    expect(body.errors).toBeUndefined();
    const afterGraphQL = await get(t, '/v1/pets?limit=100', { 'if-none-match': restTag });
    expect(afterGraphQL.statusCode).toBe(200);
    expect(afterGraphQL.json().at(-1)).toMatchObject({ name: 'Tom' });
  });

  it('revalidates one pet, deprecated headers kept on the 304; an order changing its status moves it', async ({ t }) => {
    const pet = (await addPet(t, 'Rex')).json() as { id: number };
    const first = await get(t, `/v1/pets/${pet.id}`);
    const tag = String(first.headers.etag);
    const revalidated = await get(t, `/v1/pets/${pet.id}`, { 'if-none-match': tag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers.deprecation).toBeDefined();
    expect((await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: pet.id } })).statusCode).toBe(201);
    const after = await get(t, `/v1/pets/${pet.id}`, { 'if-none-match': tag });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ status: 'pending' });
  });

  it('matches * only where the resource exists; a missing one stays a 404 with the Error body and no tag', async ({ t }) => {
    const pet = (await addPet(t, 'Rex')).json() as { id: number };
    const found = await get(t, `/v1/pets/${pet.id}`, { 'if-none-match': '*' });
    expect(found.statusCode).toBe(304);
    expect(found.body).toBe('');
    const missing = await get(t, '/v1/pets/999999', { 'if-none-match': '*' });
    expectErrorBody(missing, 'PET_NOT_FOUND');
    expect(missing.headers.etag).toBeUndefined();
  });

  it('answers HEAD with the tag and no body, and 304 when it matches', async ({ t }) => {
    await addPet(t, 'Rex');
    const head = await get(t, '/v1/pets', {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const tag = String(head.headers.etag);
    expect(tag).toBe((await get(t, '/v1/pets')).headers.etag);
    expect((await get(t, '/v1/pets', { 'if-none-match': tag }, 'HEAD')).statusCode).toBe(304);
  });

  it('checks the key and the request before any precondition', async ({ t }) => {
    await addPet(t, 'Rex');
    const tag = String((await get(t, '/v1/pets')).headers.etag);
    expectErrorBody(await t.app.inject({ url: '/v1/pets', headers: { 'if-none-match': tag } }), 'UNAUTHORIZED');
    expectErrorBody(await get(t, '/v1/pets?limit=abc', { 'if-none-match': '*' }), 'VALIDATION_FAILED');

    const { key, id } = await createApiKey(t.db, 'tester-2');
    const ownTag = String((await t.app.inject({ url: '/v1/pets', headers: bearer(key) })).headers.etag);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/keys/${id}`, headers: bearer(key) })).statusCode).toBe(200);
    expectErrorBody(await t.app.inject({ url: '/v1/pets', headers: { ...bearer(key), 'if-none-match': ownTag } }), 'UNAUTHORIZED');
  });

  it("tags orders and messages per account: one account's tag never revalidates another's answer", async ({ t }) => {
    const pet = (await addPet(t, 'Rex')).json() as { id: number };
    const order = (await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: pet.id } })).json() as { id: number };
    const { key: otherKey } = await createApiKey(t.db, 'someone-else');
    const mine = await get(t, '/v1/store/orders');
    const theirs = await t.app.inject({ url: '/v1/store/orders', headers: bearer(otherKey) });
    expect(theirs.json()).toEqual([]);
    expect(theirs.headers.etag).not.toBe(mine.headers.etag);
    const cross = await t.app.inject({
      url: '/v1/store/orders',
      headers: { ...bearer(otherKey), 'if-none-match': String(mine.headers.etag) },
    });
    expect(cross.statusCode).toBe(200);

    const one = await get(t, `/v1/store/orders/${order.id}`);
    const tag = String(one.headers.etag);
    expect((await get(t, `/v1/store/orders/${order.id}`, { 'if-none-match': tag })).statusCode).toBe(304);
    const advanced = await t.call({ method: 'PATCH', url: `/v1/store/orders/${order.id}`, payload: { status: 'approved' } });
    expect(advanced.statusCode).toBe(200);
    const after = await get(t, `/v1/store/orders/${order.id}`, { 'if-none-match': tag });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ status: 'approved' });

    const sent = (await t.call({ method: 'POST', url: '/messages', payload: { message: 'hello' } })).json() as { id: string };
    const message = await get(t, `/messages/${sent.id}`);
    expect(message.statusCode).toBe(200);
    expect((await get(t, `/messages/${sent.id}`, { 'if-none-match': String(message.headers.etag) })).statusCode).toBe(304);
  });

  it('answers an invalid cursor with its 400, whatever If-None-Match says', async ({ t }) => {
    await addPet(t, 'Rex');
    const pets = String((await get(t, '/v1/pets')).headers.etag);
    expectErrorBody(await get(t, '/v1/pets?cursor=garbage', { 'if-none-match': pets }), 'INVALID_CURSOR');
    expectErrorBody(await get(t, '/v1/pets?cursor=garbage', { 'if-none-match': '*' }), 'INVALID_CURSOR');
    const orders = String((await get(t, '/v1/store/orders')).headers.etag);
    // A cursor of another list is not this list's either.
    const petsCursor = Buffer.from('pets:1').toString('base64url');
    expectErrorBody(await get(t, `/v1/store/orders?cursor=${petsCursor}`, { 'if-none-match': orders }), 'INVALID_CURSOR');
    // A valid cursor still revalidates.
    expect((await get(t, `/v1/pets?cursor=${petsCursor}`, { 'if-none-match': pets })).statusCode).toBe(304);
  });

  it("moves the orders list's tag with the caller's own orders only, and shows nothing of them", async ({ t }) => {
    const [mine, theirs] = [(await addPet(t, 'Rex')).json() as { id: number }, (await addPet(t, 'Tom')).json() as { id: number }];
    const before = await get(t, '/v1/store/orders?limit=100');
    const tag = String(before.headers.etag);
    // An opaque hash: no version, count or account in clear.
    expect(tag).toMatch(/^W\/"[\w-]{22}"$/);
    const { key } = await createApiKey(t.db, 'another-tenant');
    const other = bearer(key);
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: other, payload: { petId: theirs.id } })).statusCode,
    ).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: '/messages', headers: other, payload: { message: 'hi' } })).statusCode).toBe(201);
    expect((await get(t, '/v1/store/orders?limit=100', { 'if-none-match': tag })).statusCode).toBe(304);
    expect((await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: mine.id } })).statusCode).toBe(201);
    const after = await get(t, '/v1/store/orders?limit=100', { 'if-none-match': tag });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual([...before.json(), expect.objectContaining({ petId: mine.id })]);
  });

  it('refuses a key revoked through another instance on the request whose versions read saw it, not 250 ms later', async ({ t }) => {
    const other = await startInstanceOn(t.databaseUrl);
    try {
      const { key, id } = await createApiKey(t.db, 'soon-revoked');
      // Verified once here: this instance's key cache trusts it until its next look at the database.
      expect((await t.app.inject({ url: '/v1/pets', headers: bearer(key) })).statusCode).toBe(200);
      expect((await other.inject({ method: 'DELETE', url: `/v1/keys/${id}`, headers: bearer(key) })).statusCode).toBe(200);
      const after = await t.app.inject({ url: '/v1/pets', headers: bearer(key) });
      expectErrorBody(after, 'UNAUTHORIZED');
      expect(after.json().message).toBe('The API key is invalid or has been revoked.');
      // What that read found, this instance's key cache now knows: a route with no versions read refuses the key too.
      expectErrorBody(await t.app.inject({ url: '/v1/keys', headers: bearer(key) }), 'UNAUTHORIZED');
    } finally {
      await other.close();
    }
  });

  it('never revalidates a tag from before a restore against the data written after it', async ({ databaseUrl, tmp }) => {
    // Counters would be back where they were: the pets written after the restore would take the
    // versions of the ones the restore removed, and an old tag would match the new list.
    let app = await startInstanceOn(databaseUrl, { SIGNUP: 'open' });
    let headers: Record<string, string> = {};
    const pets = () => app.inject({ url: '/v1/pets', headers });
    const add = (name: string) => app.inject({ method: 'POST', url: '/v1/pets', headers, payload: { name, categoryId: 1 } });
    try {
      const signedUp = await app.inject({ method: 'POST', url: '/signup', payload: { account: 'restorer' } });
      headers = bearer(signedUp.json().apiKey.key);
      expect((await add('Rex')).statusCode).toBe(201);
      const backup = snapshotDatabase(databaseUrl, tmp);
      expect((await add('Fido')).statusCode).toBe(201);
      const tag = String((await pets()).headers.etag);
      await app.close();
      await backup.restore();
      app = await startInstanceOn(databaseUrl);
      expect((await add('Tom')).statusCode).toBe(201);
      const after = await app.inject({ url: '/v1/pets', headers: { ...headers, 'if-none-match': tag } });
      expect(after.statusCode).toBe(200);
      expect(after.json().map((pet: { name: string }) => pet.name)).toEqual(['Rex', 'Tom']);
    } finally {
      await app.close();
    }
  });
});
