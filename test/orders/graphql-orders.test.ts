import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { graphql } from '../helpers/graphql.ts';
import { startTestApp } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PLACE = 'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id petId quantity shipDate status complete } }';
const newPet = async () => String((await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'G', categoryId: 1 } })).json().id);

describe('GraphQL orders (experimental)', () => {
  it('placeOrder orders an available pet, the same record REST shows', async () => {
    const petId = await newPet();
    const { body } = await graphql(t, PLACE, { input: { petId, quantity: 3, shipDate: '2026-12-24T18:00:00Z' } });
    const order = body.data?.placeOrder as { id: string };
    expect(order).toEqual({ id: expect.stringMatching(/^\d+$/), petId, quantity: 3, shipDate: '2026-12-24T18:00:00.000Z', status: 'placed', complete: false });
    const rest = (await t.call({ url: `/v1/store/orders/${order.id}` })).json();
    expect(rest).toEqual({ ...order, id: Number(order.id), petId: Number(petId) });
    expect((await t.call({ url: `/v1/pets/${petId}` })).json().status).toBe('pending');
  });

  it('refuses a pet that is no longer available with PET_NOT_AVAILABLE (409)', async () => {
    const petId = await newPet();
    await graphql(t, PLACE, { input: { petId } });
    const { body } = await graphql(t, PLACE, { input: { petId } });
    expect(body.data).toBeNull();
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'PET_NOT_AVAILABLE', status: 409 });
  });

  it.each([
    [{ petId: 'abc' }, 'VALIDATION_FAILED'],
    [{ petId: '999999' }, 'PET_NOT_FOUND'],
    [{ petId: '1', quantity: 0 }, 'VALIDATION_FAILED'],
  ])('answers %j with %s', async (input, code) => {
    const { body } = await graphql(t, PLACE, { input });
    expect(body.errors?.[0]?.extensions?.code).toBe(code);
  });

  it('orders and order read only your own, paged like pets', async () => {
    const mine: string[] = [];
    for (let i = 0; i < 3; i++) mine.push(((await graphql(t, PLACE, { input: { petId: await newPet() } })).body.data?.placeOrder as { id: string }).id);
    const page = await graphql(t, '{ orders(first: 100, status: placed) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } }');
    const conn = page.body.data?.orders as { totalCount: number; nodes: { id: string }[] };
    expect(conn.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(mine));
    expect(conn.totalCount).toBe(conn.nodes.length);

    const other = await createApiKey(t.db, 'other-gql');
    const headers = { authorization: `Bearer ${other.key}` };
    const theirs = await graphql(t, '{ orders { totalCount nodes { id } } }', undefined, headers);
    expect(theirs.body.data?.orders).toEqual({ totalCount: 0, nodes: [] });
    const peek = await graphql(t, `{ order(id: "${mine[0]}") { id } }`, undefined, headers);
    expect(peek.body.data).toEqual({ order: null });
    expect(peek.body.errors?.[0]?.extensions).toEqual({ code: 'ORDER_NOT_FOUND', status: 404 });
  });

  it('pages orders with first/after and a REST cursor works as after', async () => {
    const rest = await t.call({ url: '/v1/store/orders?limit=1' });
    const cursor = /cursor=([^&>]+)/.exec(String(rest.headers.link))?.[1];
    const { body } = await graphql(t, `{ orders(first: 1, after: "${cursor}") { nodes { id } } }`);
    const second = (await t.call({ url: `/v1/store/orders?limit=1&cursor=${cursor}` })).json();
    expect((body.data?.orders as { nodes: { id: string }[] }).nodes.map((n) => Number(n.id))).toEqual(second.map((o: { id: number }) => o.id));
  });

  it('needs a key', async () => {
    const { res } = await graphql(t, '{ orders { totalCount } }', undefined, {});
    expect(res.statusCode).toBe(401);
  });
});
