import { createApiKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { spyOnSelects } from '../helpers/select-spy.ts';
import type { TestApp } from '../helpers/test-app.ts';

/** Tables read by each SELECT the app runs, in order. */
const selects: string[] = [];
it.override('appOptions', { wrapDb: spyOnSelects((table) => selects.push(table)) });

const newPet = async (t: TestApp, name = 'G', status = 'available') =>
  (await t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1, status } })).json() as { id: number };
const placeOrder = async (t: TestApp, petId: number) =>
  (await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId } })).json() as { id: number };
const data = <T>(body: { data?: Record<string, unknown> | null; errors?: unknown }, field: string): T => {
  expect(body.errors).toBeUndefined();
  return body.data?.[field] as T;
};

const ADVANCE = 'mutation($id: ID!, $s: OrderStatus!) { advanceOrder(id: $id, status: $s) { id status complete pet { id status } } }';
const CANCEL = 'mutation($id: ID!) { cancelOrder(id: $id) { cancelledOrderId pet { id status } } }';

describe('advanceOrder and cancelOrder: REST PATCH and DELETE on GraphQL', () => {
  it('approves, then delivers an order, selling its pet, as PATCH does', async ({ t }) => {
    const pet = await newPet(t);
    const order = await placeOrder(t, pet.id);
    const id = String(order.id);
    const approved = await graphql(t, ADVANCE, { id, s: 'approved' });
    expect(data(approved.body, 'advanceOrder')).toEqual({
      id,
      status: 'approved',
      complete: false,
      pet: { id: String(pet.id), status: 'pending' },
    });
    const delivered = await graphql(t, ADVANCE, { id, s: 'delivered' });
    expect(data(delivered.body, 'advanceOrder')).toEqual({
      id,
      status: 'delivered',
      complete: true,
      pet: { id: String(pet.id), status: 'sold' },
    });
    expect((await t.call({ url: `/v1/store/orders/${id}` })).json()).toMatchObject({ status: 'delivered', complete: true });
  });

  it('cancels an order: it is gone and its pet is available again, as DELETE does', async ({ t }) => {
    const pet = await newPet(t);
    const order = await placeOrder(t, pet.id);
    const { body } = await graphql(t, CANCEL, { id: String(order.id) });
    expect(data(body, 'cancelOrder')).toEqual({ cancelledOrderId: String(order.id), pet: { id: String(pet.id), status: 'available' } });
    expect((await t.call({ url: `/v1/store/orders/${order.id}` })).statusCode).toBe(404);
  });

  it("never touches another account's order: ORDER_NOT_FOUND, and the order unchanged", async ({ t }) => {
    const order = await placeOrder(t, (await newPet(t)).id);
    const other = { authorization: `Bearer ${(await createApiKey(t.db, 'graph-other')).key}` };
    for (const [query, variables] of [
      [ADVANCE, { id: String(order.id), s: 'approved' }],
      [CANCEL, { id: String(order.id) }],
    ] as const) {
      const { body } = await graphql(t, query, variables, other);
      expect(body.errors?.[0]?.extensions).toEqual({ code: 'ORDER_NOT_FOUND', status: 404 });
    }
    expect((await t.call({ url: `/v1/store/orders/${order.id}` })).json().status).toBe('placed');
  });
});

describe('relations', () => {
  it('Order.pet for a page of 100 orders is read in one batched query, not 100', async ({ t }) => {
    const account = await createApiKey(t.db, 'graph-batch');
    const headers = { authorization: `Bearer ${account.key}` };
    const petIds: number[] = [];
    for (let i = 0; i < 100; i++) {
      const pet = await newPet(t, `batch-${i}`);
      petIds.push(pet.id);
      await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers, payload: { petId: pet.id } });
    }
    selects.length = 0;
    const { body } = await graphql(t, '{ orders(first: 100) { nodes { petId pet { id name status } } } }', undefined, headers);
    const nodes = data<{ nodes: { petId: string; pet: { id: string; name: string; status: string } }[] }>(body, 'orders').nodes;
    expect(nodes).toHaveLength(100);
    expect(nodes.every((n) => n.pet.id === n.petId && n.pet.status === 'pending')).toBe(true);
    expect(nodes.map((n) => n.pet.name)).toEqual(petIds.map((_, i) => `batch-${i}`));
    // The key is looked up (or cached), then one read of the page and one of its pets.
    const reads = () => selects.filter((table) => table !== 'api_keys' && table !== 'accounts');
    expect(reads()).toEqual(['orders', 'pets']);

    // The same through edges and through a fragment; two pages in one operation (no pet in common):
    // each page reads its pets in one query, whatever its size (or both in one, when the second
    // page is listed before the first asks for a pet).
    selects.length = 0;
    const viaEdges = `fragment P on Order { pet { name } }
      { a: orders(first: 2) { edges { node { ...P } } } b: orders(last: 1) { nodes { ... on Order { pet { id } } } } }`;
    const { body: other } = await graphql(t, viaEdges, undefined, headers);
    expect(other.errors).toBeUndefined();
    expect(other.data).toEqual({
      a: { edges: [{ node: { pet: { name: 'batch-0' } } }, { node: { pet: { name: 'batch-1' } } }] },
      b: { nodes: [{ pet: { id: String(petIds[99]) } }] },
    });
    expect(reads().filter((table) => table === 'orders')).toHaveLength(2);
    expect(reads().filter((table) => table === 'pets').length).toBeOneOf([1, 2]);
    expect(reads().filter((table) => table !== 'orders' && table !== 'pets')).toEqual([]);

    // Every shape of page (after a cursor, by status, backward) finds its own orders' pets.
    const names = async (args: string) => {
      const { body: page } = await graphql(t, `{ orders(${args}) { nodes { pet { name } } } }`, undefined, headers);
      return data<{ nodes: { pet: { name: string } }[] }>(page, 'orders').nodes.map((n) => n.pet.name);
    };
    const { body: first } = await graphql(t, '{ orders(first: 2) { pageInfo { endCursor } } }', undefined, headers);
    const cursor = data<{ pageInfo: { endCursor: string } }>(first, 'orders').pageInfo.endCursor;
    expect(await names(`first: 2, after: "${cursor}", status: placed`)).toEqual(['batch-2', 'batch-3']);
    expect(await names('last: 2')).toEqual(['batch-98', 'batch-99']);
    expect(await names(`last: 1, before: "${cursor}", status: placed`)).toEqual(['batch-0']);
    expect(await names('first: 2, status: delivered')).toEqual([]);

    selects.length = 0;
    await graphql(t, '{ orders(first: 100) { nodes { id } } }', undefined, headers);
    expect(reads()).toEqual(['orders']);
  });

  it("Pet.orders shows the caller's own orders only, in one query for a page of pets", async ({ t }) => {
    const pet = await newPet(t, 'shared-interest');
    const mine = await placeOrder(t, pet.id);
    const other = { authorization: `Bearer ${(await createApiKey(t.db, 'graph-nosy')).key}` };
    const query = `{ pets(last: 5) { nodes { id orders { id status pet { id } } } } }`;
    selects.length = 0;
    const own = data<{ nodes: { id: string; orders: { id: string }[] }[] }>((await graphql(t, query)).body, 'pets').nodes;
    expect(own.find((p) => p.id === String(pet.id))?.orders).toEqual([
      { id: String(mine.id), status: 'placed', pet: { id: String(pet.id) } },
    ]);
    expect(selects.filter((table) => table === 'orders')).toHaveLength(1);
    const theirs = data<{ nodes: { id: string; orders: unknown[] }[] }>((await graphql(t, query, undefined, other)).body, 'pets').nodes;
    expect(theirs.find((p) => p.id === String(pet.id))?.orders).toEqual([]);
  });
});

describe('Relay connections: both ways, exact flags, cursors shared with REST', () => {
  const PAGE = `query($first: Int, $after: String, $last: Int, $before: String, $status: PetStatus) {
    pets(first: $first, after: $after, last: $last, before: $before, status: $status) {
      edges { cursor node { id } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }`;
  interface Connection {
    edges: { cursor: string; node: { id: string } }[];
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  }
  const page = async (t: TestApp, variables: Record<string, unknown>) => data<Connection>((await graphql(t, PAGE, variables)).body, 'pets');

  it('walks forward and backward over the same pets, in the same order, with exact flags', async ({ t }) => {
    for (let i = 0; i < 7; i++) await newPet(t, `walk-${i}`, 'sold');
    const all = ((await t.call({ url: '/v1/pets?status=sold&limit=100' })).json() as { id: number }[]).map((p) => String(p.id));
    expect(all.length).toBeGreaterThanOrEqual(7);

    const forward: string[] = [];
    let after: string | null = null;
    for (let n = 0; ; n++) {
      const c = await page(t, { first: 3, after, status: 'sold' });
      forward.push(...c.edges.map((e) => e.node.id));
      expect(c.pageInfo.hasPreviousPage).toBe(n > 0);
      expect(c.pageInfo.startCursor).toBe(c.edges[0]?.cursor ?? null);
      expect(c.pageInfo.endCursor).toBe(c.edges.at(-1)?.cursor ?? null);
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(forward).toEqual(all);

    const backward: string[] = [];
    let before: string | null = null;
    for (let n = 0; ; n++) {
      const c = await page(t, { last: 3, before, status: 'sold' });
      backward.unshift(...c.edges.map((e) => e.node.id));
      expect(c.pageInfo.hasNextPage).toBe(n > 0);
      if (!c.pageInfo.hasPreviousPage) break;
      before = c.pageInfo.startCursor;
    }
    expect(backward).toEqual(all);
  });

  it("takes a REST Link cursor as 'before', and its own cursors on REST", async ({ t }) => {
    for (let i = 0; i < 4; i++) await newPet(t, `link-${i}`);
    const first = await t.call({ url: '/v1/pets?limit=2' });
    const restCursor = /cursor=([^&>]+)/.exec(String(first.headers.link))?.[1] ?? '';
    const c = await page(t, { last: 2, before: restCursor });
    // The REST cursor is the first page's last pet: before it, only the first pet.
    expect(c.edges.map((e) => e.node.id)).toEqual([String((first.json() as { id: number }[])[0]?.id)]);
    expect(c.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    const rest = await t.call({ url: `/v1/pets?limit=1&cursor=${c.pageInfo.endCursor}` });
    expect(rest.json()[0].id).toBe((first.json() as { id: number }[])[1]?.id);
  });

  it.for([
    [{ first: 2, last: 2 }, "Pass either 'first'/'after' (forward) or 'last'/'before' (backward), not both."],
    [{ last: 101 }, "Argument 'last' must be at most 100."],
    [{ before: 'bm9wZQ' }, 'The cursor is not valid; use the one from the previous page.'],
  ] as const)('refuses %o with a 400 that says why', async ([variables, message], { t }) => {
    const { body } = await graphql(t, PAGE, variables);
    expect(body.errors?.[0]).toMatchObject({ message, extensions: { status: 400 } });
  });
});
