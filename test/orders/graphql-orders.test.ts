import { describe, expect, it } from '../helpers/fixtures.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { graphql } from '../helpers/graphql.ts';
import type { TestApp } from '../helpers/test-app.ts';

const PLACE = 'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id petId quantity shipDate status complete } }';
const newPet = async (t: TestApp) =>
  String((await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'G', categoryId: 1 } })).json().id);

describe('shipDate, the same rule on both faces', () => {
  it.for([
    ['2026-12-31T23:59:60Z', '2027-01-01T00:00:00.000Z'],
    ['2027-01-01T00:59:60+01:00', '2027-01-01T00:00:00.000Z'],
    ['2026-12-24t18:00:00.123456z', '2026-12-24T18:00:00.123Z'],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['2026-12-24T20:00:00+02:00', '2026-12-24T18:00:00.000Z'],
  ] as const)('accepts %s, stores it as %s, and both faces read it back', async ([shipDate, stored], { t }) => {
    const rest = await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: Number(await newPet(t)), shipDate } });
    expect(rest.statusCode).toBe(201);
    expect(rest.json().shipDate).toBe(stored);
    const { body } = await graphql(t, PLACE, { input: { petId: await newPet(t), shipDate } });
    const placed = body.data?.placeOrder as { id: string; shipDate: string };
    expect(placed.shipDate).toBe(stored);
    const again = await graphql(t, 'query($id: ID!) { order(id: $id) { shipDate } }', { id: placed.id });
    expect(again.body).toEqual({ data: { order: { shipDate: stored } } });
    expect((await t.call({ url: `/v1/store/orders/${rest.json().id}` })).json().shipDate).toBe(stored);
  });

  it.for([
    '9999-12-31T23:59:59-23:59',
    '0000-01-01T00:00:00+00:01',
    '2026-12-31T23:59:60+01:00',
    '2026-06-30T12:59:60Z',
    '2026-02-29T00:00:00Z',
    '2026-12-01 10:00:00Z',
    '2026-12-01T10:00Z',
    '2026-12-01T10:00:00+24:00',
    '+010000-01-01T00:00:00Z',
  ] as const)('refuses %s with 400 and the same message on both faces, storing nothing', async (shipDate, { t }) => {
    const message = "Field 'shipDate' must be an RFC 3339 date-time in years 0000-9999 (UTC), e.g. 2026-12-01T10:00:00Z.";
    const petId = await newPet(t);
    const rest = await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: Number(petId), shipDate } });
    expect(rest.statusCode).toBe(400);
    expect(rest.json()).toEqual({ code: 'VALIDATION_FAILED', message, status: 400 });
    // GraphQL answers a refused field like any execution error: HTTP 200, no data, the error with REST's code.
    const { body } = await graphql(t, PLACE, { input: { petId, shipDate } });
    expect(body.data).toBeNull();
    expect(body.errors?.[0]).toMatchObject({ message, extensions: { code: 'VALIDATION_FAILED', status: 400 } });
    expect((await t.call({ url: `/v1/pets/${petId}` })).json().status).toBe('available');
  });
});

describe('GraphQL orders (experimental)', () => {
  it('placeOrder orders an available pet, the same record REST shows', async ({ t }) => {
    const petId = await newPet(t);
    const { body } = await graphql(t, PLACE, { input: { petId, quantity: 3, shipDate: '2026-12-24T18:00:00Z' } });
    const order = body.data?.placeOrder as { id: string };
    expect(order).toEqual({
      id: expect.stringMatching(/^\d+$/),
      petId,
      quantity: 3,
      shipDate: '2026-12-24T18:00:00.000Z',
      status: 'placed',
      complete: false,
    });
    const rest = (await t.call({ url: `/v1/store/orders/${order.id}` })).json();
    expect(rest).toEqual({ ...order, id: Number(order.id), petId: Number(petId) });
    expect((await t.call({ url: `/v1/pets/${petId}` })).json().status).toBe('pending');
  });

  it('refuses a pet that is no longer available with PET_NOT_AVAILABLE (409)', async ({ t }) => {
    const petId = await newPet(t);
    await graphql(t, PLACE, { input: { petId } });
    const { body } = await graphql(t, PLACE, { input: { petId } });
    expect(body.data).toBeNull();
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'PET_NOT_AVAILABLE', status: 409 });
  });

  it.for([
    [{ petId: 'abc' }, 'VALIDATION_FAILED'],
    [{ petId: '999999' }, 'PET_NOT_FOUND'],
    [{ petId: '1', quantity: 0 }, 'VALIDATION_FAILED'],
  ] as const)('answers %j with %s', async ([input, code], { t }) => {
    const { body } = await graphql(t, PLACE, { input });
    expect(body.errors?.[0]?.extensions?.code).toBe(code);
  });

  it('orders and order read only your own, paged like pets', async ({ t }) => {
    const mine: string[] = [];
    for (let i = 0; i < 3; i++)
      mine.push(((await graphql(t, PLACE, { input: { petId: await newPet(t) } })).body.data?.placeOrder as { id: string }).id);
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

  it('pages orders with first/after and a REST cursor works as after', async ({ t }) => {
    const rest = await t.call({ url: '/v1/store/orders?limit=1' });
    const cursor = /cursor=([^&>]+)/.exec(String(rest.headers.link))?.[1];
    const { body } = await graphql(t, `{ orders(first: 1, after: "${cursor}") { nodes { id } } }`);
    const second = (await t.call({ url: `/v1/store/orders?limit=1&cursor=${cursor}` })).json();
    expect((body.data?.orders as { nodes: { id: string }[] }).nodes.map((n) => Number(n.id))).toEqual(
      second.map((o: { id: number }) => o.id),
    );
  });

  it('needs a key', async ({ t }) => {
    const { res } = await graphql(t, '{ orders { totalCount } }', undefined, {});
    expect(res.statusCode).toBe(401);
  });
});
