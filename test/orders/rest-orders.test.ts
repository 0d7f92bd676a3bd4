import { describe, expect, it } from '../helpers/fixtures.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

const newPet = async (t: TestApp, status = 'available') =>
  (await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Orderable', categoryId: 1, status } })).json().id as number;
const petStatus = async (t: TestApp, id: number) => (await t.call({ url: `/v1/pets/${id}` })).json().status as string;
const place = (t: TestApp, payload: object, headers: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: '/v1/store/orders', payload, headers });
const advance = (t: TestApp, id: number, status: string) => t.call({ method: 'PATCH', url: `/v1/store/orders/${id}`, payload: { status } });

describe('POST /v1/store/orders', () => {
  it('places an order for an available pet: 201, the order, Location; the pet becomes pending', async ({ t }) => {
    const petId = await newPet(t);
    const res = await place(t, { petId, quantity: 2, shipDate: '2026-12-01T10:00:00+01:00' });
    expect(res.statusCode).toBe(201);
    const order = res.json();
    expect(order).toEqual({
      id: expect.any(Number),
      petId,
      quantity: 2,
      shipDate: '2026-12-01T09:00:00.000Z',
      status: 'placed',
      complete: false,
    });
    expect(res.headers.location).toBe(`/v1/store/orders/${order.id}`);
    expect(res.headers['x-api-stability']).toBe('experimental');
    expect(await petStatus(t, petId)).toBe('pending');
    expect((await t.call({ url: res.headers.location as string })).json()).toEqual(order);
  });

  it('defaults quantity to 1 and shipDate to null', async ({ t }) => {
    const res = await place(t, { petId: await newPet(t) });
    expect(res.json()).toMatchObject({ quantity: 1, shipDate: null });
  });

  it.for(['pending', 'sold'] as const)('refuses a %s pet with 409 PET_NOT_AVAILABLE, storing nothing', async (status, { t }) => {
    const petId = await newPet(t, status);
    const res = await place(t, { petId });
    expect(res.statusCode).toBe(409);
    expect(expectErrorBody(res, 'PET_NOT_AVAILABLE').message).toMatch(new RegExp(`is ${status}`));
    expect(await petStatus(t, petId)).toBe(status);
  });

  it('answers 404 PET_NOT_FOUND for an unknown pet', async ({ t }) => {
    const res = await place(t, { petId: 987654 });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res, 'PET_NOT_FOUND');
  });

  it.for([
    [{}, /'petId' is required/],
    [{ petId: '1' }, /'petId' must be an integer/],
    [{ petId: 1, quantity: 0 }, /'quantity' must be at least 1/],
    [{ petId: 1, quantity: 101 }, /'quantity' must be at most 100/],
    [{ petId: 1, shipDate: 'tomorrow' }, /'shipDate' must be an RFC 3339 date-time/],
    [{ petId: 1, status: 'delivered' }, /'status' is not allowed/],
  ] as const)('refuses %j with 400 VALIDATION_FAILED', async ([payload, message], { t }) => {
    const res = await place(t, payload);
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res, 'VALIDATION_FAILED').message).toMatch(message);
    expect(res.headers['x-api-stability']).toBe('experimental');
  });

  it('lets exactly one of many concurrent orders for one pet succeed', async ({ t }) => {
    const petId = await newPet(t);
    const results = await Promise.all(Array.from({ length: 10 }, () => place(t, { petId })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, ...Array(9).fill(409)]);
    const orders = await t.db.selectFrom('orders').select('id').where('pet_id', '=', petId).execute();
    expect(orders).toHaveLength(1);
  });
});

describe('PATCH /v1/store/orders/{orderId}', () => {
  it('moves placed → approved → delivered; delivery completes the order and sells the pet', async ({ t }) => {
    const petId = await newPet(t);
    const order = (await place(t, { petId })).json();
    const approved = await advance(t, order.id, 'approved');
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', complete: false });
    expect(await petStatus(t, petId)).toBe('pending');
    const delivered = await advance(t, order.id, 'delivered');
    expect(delivered.json()).toMatchObject({ status: 'delivered', complete: true });
    expect(await petStatus(t, petId)).toBe('sold');
  });

  it.for([
    [[], 'delivered', /placed; it can move to approved, not delivered/],
    [[], 'placed', /placed; it can move to approved, not placed/],
    [['approved'], 'placed', /approved; it can move to delivered, not placed/],
    [['approved'], 'approved', /approved; it can move to delivered, not approved/],
    [['approved', 'delivered'], 'approved', /delivered; it cannot change any more/],
  ] as const)('after %j refuses → %s with 409 INVALID_ORDER_TRANSITION', async ([steps, target, message], { t }) => {
    const order = (await place(t, { petId: await newPet(t) })).json();
    for (const step of steps) expect((await advance(t, order.id, step)).statusCode).toBe(200);
    const res = await advance(t, order.id, target);
    expect(res.statusCode).toBe(409);
    expect(expectErrorBody(res, 'INVALID_ORDER_TRANSITION').message).toMatch(message);
    expect((await t.call({ url: `/v1/store/orders/${order.id}` })).json().status).toBe(steps.at(-1) ?? 'placed');
  });

  it.for(['0x1', '1e0', '+1', '01', '1.0', '%201'] as const)(
    'reads the order id %s as no id at all: 400 naming orderId, on every method',
    async (id, { t }) => {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const res = await t.call({
          method,
          url: `/v1/store/orders/${id}`,
          ...(method === 'PATCH' ? { payload: { status: 'approved' } } : {}),
        });
        expect(expectErrorBody(res, 'VALIDATION_FAILED').message).toBe(
          "Path parameter 'orderId' must be an integer written in plain decimal digits.",
        );
      }
    },
  );

  it('refuses an unknown status with 400', async ({ t }) => {
    const order = (await place(t, { petId: await newPet(t) })).json();
    const res = await advance(t, order.id, 'shipped');
    expect(res.statusCode).toBe(400);
    expectErrorBody(res, 'VALIDATION_FAILED');
  });
});

describe('DELETE /v1/store/orders/{orderId}', () => {
  it.for([[], ['approved']] as const)('cancels after %j: 204, gone, and the pet is available again', async (steps, { t }) => {
    const petId = await newPet(t);
    const order = (await place(t, { petId })).json();
    for (const step of steps) await advance(t, order.id, step);
    const res = await t.call({ method: 'DELETE', url: `/v1/store/orders/${order.id}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['x-api-stability']).toBe('experimental');
    expect((await t.call({ url: `/v1/store/orders/${order.id}` })).statusCode).toBe(404);
    expect(await petStatus(t, petId)).toBe('available');
    expect((await place(t, { petId })).statusCode).toBe(201);
  });

  it('refuses to cancel a delivered order with 409, keeping the pet sold', async ({ t }) => {
    const petId = await newPet(t);
    const order = (await place(t, { petId })).json();
    await advance(t, order.id, 'approved');
    await advance(t, order.id, 'delivered');
    const res = await t.call({ method: 'DELETE', url: `/v1/store/orders/${order.id}` });
    expect(res.statusCode).toBe(409);
    expectErrorBody(res, 'INVALID_ORDER_TRANSITION');
    expect(await petStatus(t, petId)).toBe('sold');
  });
});

describe('ownership and listing', () => {
  it("hides another account's orders: 404 on read, change and cancel; absent from its list", async ({ t }) => {
    const order = (await place(t, { petId: await newPet(t) })).json();
    const other = await createApiKey(t.db, 'rival');
    const headers = { authorization: `Bearer ${other.key}` };
    for (const [method, payload] of [['GET'], ['PATCH', { status: 'approved' }], ['DELETE']] as const) {
      const res = await t.app.inject({ method, url: `/v1/store/orders/${order.id}`, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, method).toBe(404);
      expectErrorBody(res, 'ORDER_NOT_FOUND');
    }
    const list = await t.app.inject({ url: '/v1/store/orders', headers });
    expect(list.json()).toEqual([]);
  });

  it('lists your orders in id order, filtered by status, paged with Link like pets', async ({ makeApp }) => {
    const fresh = await makeApp();
    {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        const petId = (await fresh.call({ method: 'POST', url: '/v1/pets', payload: { name: `o${i}`, categoryId: 1 } })).json().id;
        const order = (await fresh.call({ method: 'POST', url: '/v1/store/orders', payload: { petId } })).json();
        if (i % 2 === 0) await fresh.call({ method: 'PATCH', url: `/v1/store/orders/${order.id}`, payload: { status: 'approved' } });
        ids.push(order.id);
      }
      const first = await fresh.call({ url: '/v1/store/orders?limit=2' });
      expect(first.json().map((o: { id: number }) => o.id)).toEqual(ids.slice(0, 2));
      expect(first.headers.link).toMatch(/^<\/v1\/store\/orders\?limit=2&cursor=[\w-]+>; rel="next"$/);
      const approved = await fresh.call({ url: '/v1/store/orders?status=approved' });
      expect(approved.json().map((o: { id: number }) => o.id)).toEqual([ids[0], ids[2], ids[4]]);
      const petCursor = Buffer.from('pets:1').toString('base64url');
      expectErrorBody(await fresh.call({ url: `/v1/store/orders?cursor=${petCursor}` }), 'INVALID_CURSOR');
      expectErrorBody(await fresh.call({ url: '/v1/store/orders?status=cancelled' }), 'VALIDATION_FAILED');
    }
  });

  it('requires a key, and says experimental even on the 401', async ({ t }) => {
    const res = await t.app.inject({ url: '/v1/store/orders' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-api-stability']).toBe('experimental');
  });

  it('is marked experimental in the OpenAPI document', async ({ t }) => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const operations = [
      doc.paths['/store/orders'].get,
      doc.paths['/store/orders'].post,
      doc.paths['/store/orders/{orderId}'].get,
      doc.paths['/store/orders/{orderId}'].patch,
      doc.paths['/store/orders/{orderId}'].delete,
    ];
    for (const op of operations) expect(op['x-stability']).toBe('experimental');
  });
});
