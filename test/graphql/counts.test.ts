import { createApiKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import type { TestApp } from '../helpers/test-app.ts';

const COUNTS = `{
  pets { totalCount } available: pets(status: available) { totalCount }
  pending: pets(status: pending) { totalCount } sold: pets(status: sold) { totalCount }
  orders { totalCount } placed: orders(status: placed) { totalCount }
  approved: orders(status: approved) { totalCount } delivered: orders(status: delivered) { totalCount }
}`;

/** What each totalCount says, and what reading every page says, by the same names. */
async function countsBothWays(t: TestApp, headers = t.auth) {
  const { body } = await graphql(t, COUNTS, undefined, headers);
  const said = Object.fromEntries(
    Object.entries(body.data ?? {}).map(([name, conn]) => [name, (conn as { totalCount: number }).totalCount]),
  );
  const pets = (await t.call({ url: '/v1/pets?limit=100' })).json() as { status: string }[];
  const orders = (await t.call({ url: '/v1/store/orders?limit=100', headers })).json() as { status: string }[];
  const by = (rows: { status: string }[], status: string) => rows.filter((row) => row.status === status).length;
  const seen = {
    pets: pets.length,
    available: by(pets, 'available'),
    pending: by(pets, 'pending'),
    sold: by(pets, 'sold'),
    orders: orders.length,
    placed: by(orders, 'placed'),
    approved: by(orders, 'approved'),
    delivered: by(orders, 'delivered'),
  };
  return { said, seen };
}

describe('totalCount, kept with every write', () => {
  it('matches the rows through creates on both faces, orders placed, advanced, delivered and cancelled, per account', async ({
    makeApp,
  }) => {
    const t = await makeApp();
    const post = (url: string, payload: object, headers = t.auth) =>
      t.call({ method: 'POST', url, payload, headers }).then((r) => r.json());
    const pets: { id: number }[] = [];
    for (let i = 0; i < 6; i++)
      pets.push(await post('/v1/pets', { name: `rest-${i}`, categoryId: 1, status: i % 3 === 2 ? 'sold' : 'available' }));
    await graphql(t, 'mutation { createPet(input: { name: "gql", categoryId: 2, status: pending }) { id } }');
    expect(await countsBothWays(t)).toMatchObject({ said: { pets: 7, available: 4, pending: 1, sold: 2, orders: 0 } });

    const [a, b, , c, d] = pets as [{ id: number }, { id: number }, unknown, { id: number }, { id: number }];
    const orders: { id: number }[] = [];
    for (const pet of [a, b, c, d]) orders.push(await post('/v1/store/orders', { petId: pet.id }));
    const [o1, o2, o3] = orders as [{ id: number }, { id: number }, { id: number }];
    await t.call({ method: 'PATCH', url: `/v1/store/orders/${o1.id}`, payload: { status: 'approved' } });
    await t.call({ method: 'PATCH', url: `/v1/store/orders/${o2.id}`, payload: { status: 'approved' } });
    await t.call({ method: 'PATCH', url: `/v1/store/orders/${o2.id}`, payload: { status: 'delivered' } });
    await graphql(t, `mutation { cancelOrder(id: "${o3.id}") { cancelledOrderId } }`);
    // Refused writes change nothing: a pet already ordered, a step skipped.
    await post('/v1/store/orders', { petId: a.id });
    await t.call({ method: 'PATCH', url: `/v1/store/orders/${o1.id}`, payload: { status: 'placed' } });

    const mine = await countsBothWays(t);
    expect(mine.said).toEqual(mine.seen);
    expect(mine.said).toMatchObject({ orders: 3, placed: 1, approved: 1, delivered: 1, sold: 3, pending: 3 });
    // Another key of the same account counts the same orders; another account sees the same pets and none of these orders.
    const sameAccount = { authorization: `Bearer ${(await post('/v1/keys', {})).key as string}` };
    expect((await graphql(t, '{ orders { totalCount } }', undefined, sameAccount)).body.data).toEqual({ orders: { totalCount: 3 } });
    const otherAccount = { authorization: `Bearer ${(await createApiKey(t.db, 'someone-else')).key}` };
    const theirs = await countsBothWays(t, otherAccount);
    expect(theirs.said).toEqual(theirs.seen);
    expect(theirs.said).toEqual({ ...mine.said, orders: 0, placed: 0, approved: 0, delivered: 0 });
  });

  it('stays exact under concurrent writers', async ({ makeApp }) => {
    const t = await makeApp();
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) => t.call({ method: 'POST', url: '/v1/pets', payload: { name: `p${i}`, categoryId: 1 } })),
    );
    const ids = created.map((res) => (res.json() as { id: number }).id);
    // Orders and cancellations at once, some racing for the same pet.
    await Promise.all(
      ids.slice(0, 16).map((petId, i) => t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: i % 2 ? petId : ids[0] } })),
    );
    const placed = (await t.call({ url: '/v1/store/orders?limit=100' })).json() as { id: number }[];
    await Promise.all(placed.slice(0, 4).map((order) => t.call({ method: 'DELETE', url: `/v1/store/orders/${order.id}` })));
    const { said, seen } = await countsBothWays(t);
    expect(said).toEqual(seen);
    expect(said.pets).toBe(24);
  });
});
