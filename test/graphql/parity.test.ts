import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { petstoreSchema } from '../../src/graphql/petstore-schema.ts';
import { recordSelection } from '../../src/mcp/record-selection.ts';

/** A pet as its record, every field the schema gives it: REST's body has the same (test/rest/record-shapes.test.ts). */
const PET = recordSelection(petstoreSchema(), 'Pet');

it.beforeAll(async ({ t }) => {
  const statuses = ['available', 'pending', 'sold'];
  for (let i = 0; i < 23; i++) {
    await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `twin-${i}`, categoryId: 100 + i, status: statuses[(i * 7) % 3] } });
  }
});

interface RestPet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}
const nextCursor = (link: unknown) => (typeof link === 'string' ? /cursor=([^&>]+)/.exec(link)?.[1] : undefined);

async function restPage(t: TestApp, limit: number, status: string | null, cursor?: string) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (status) params.set('status', status);
  if (cursor) params.set('cursor', cursor);
  const res = await t.call({ url: `/v1/pets?${params}` });
  return { pets: res.json() as RestPet[], cursor: nextCursor(res.headers.link) };
}

async function graphqlPage(t: TestApp, first: number, status: string | null, after?: string) {
  const { body } = await graphql(
    t,
    `query($first: Int, $status: PetStatus, $after: String) { pets(first: $first, status: $status, after: $after) { nodes ${PET} pageInfo { hasNextPage endCursor } } }`,
    { first, status, after },
  );
  const conn = body.data?.pets as {
    nodes: (Omit<RestPet, 'id'> & { id: string })[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
  return {
    pets: conn.nodes.map((p) => ({ ...p, id: Number(p.id) })),
    cursor: conn.pageInfo.hasNextPage ? (conn.pageInfo.endCursor ?? undefined) : undefined,
  };
}

describe('REST and GraphQL give the same answers', () => {
  it.for([
    [5, null],
    [4, 'sold'],
    [20, 'pending'],
    [100, 'available'],
  ] as const)('the same pets in the same order, page by page (page size %i, status %s)', async ([size, status], { t }) => {
    let restCursor: string | undefined;
    let graphqlCursor: string | undefined;
    const matching = ((await t.call({ url: `/v1/pets?limit=100${status ? `&status=${status}` : ''}` })).json() as RestPet[]).length;
    let pages = 0;
    do {
      const rest = await restPage(t, size, status, restCursor);
      const gql = await graphqlPage(t, size, status, graphqlCursor);
      expect(gql.pets).toEqual(rest.pets);
      expect(gql.cursor).toBe(rest.cursor);
      restCursor = rest.cursor;
      graphqlCursor = gql.cursor;
      pages++;
    } while (restCursor);
    // Every matching pet was compared: the walk took as many pages as they fill (one, when none match).
    expect(matching).toBeGreaterThan(0);
    expect(pages).toBe(Math.max(1, Math.ceil(matching / size)));
  });

  it('accepts a cursor from one surface on the other', async ({ t }) => {
    const rest = await restPage(t, 3, null);
    const fromRestCursor = await graphqlPage(t, 3, null, rest.cursor);
    const gql = await graphqlPage(t, 3, null);
    const fromGraphqlCursor = await restPage(t, 3, null, gql.cursor);
    expect(fromRestCursor.pets).toEqual(fromGraphqlCursor.pets);
    expect(fromRestCursor.pets[0]?.id).toBeGreaterThan(rest.pets.at(-1)?.id ?? Infinity);
  });

  it('returns identical fields for the same pet', async ({ t }) => {
    const rest = (await t.call({ url: '/v1/pets/3' })).json();
    const { body } = await graphql(t, `{ pet(id: "3") ${PET} }`);
    expect({ ...(body.data?.pet as object), id: 3 }).toEqual(rest);
  });

  it('creates the same pet from the same input, and refuses the same bad input with the same code', async ({ t }) => {
    const input = { name: 'Mirror', categoryId: 77, status: 'pending' };
    const rest = (await t.call({ method: 'POST', url: '/v1/pets', payload: input })).json();
    const { body } = await graphql(t, `mutation($i: NewPetInput!) { createPet(input: $i) ${PET} }`, { i: input });
    const created = body.data?.createPet as { id: string };
    expect({ ...created, id: rest.id }).toEqual(rest);
    expect(Number(created.id)).toBe(rest.id + 1);

    const bad = { name: 'x'.repeat(101), categoryId: 1 };
    const restBad = await t.call({ method: 'POST', url: '/v1/pets', payload: bad });
    const gqlBad = await graphql(t, 'mutation($i: NewPetInput!) { createPet(input: $i) { id } }', { i: bad });
    expect(gqlBad.body.errors?.[0]?.extensions).toEqual({ code: expectErrorBody(restBad, 'VALIDATION_FAILED').code, status: 400 });
    expect(gqlBad.body.errors?.[0]?.message).toBe(restBad.json().message);
  });
});

/**
 * Each face names a field the way its client wrote it; everything after the name is the same
 * rule in the same words. These are the renames, per operation, from REST to GraphQL.
 */
const LIST = { "Query parameter 'limit'": "Argument 'first'", "Query parameter 'cursor'": "Argument 'after'" };
const BY_ID = (param: string) => ({ [`Path parameter '${param}'`]: "Argument 'id'" });
const MESSAGE = { "Field 'message'": "Argument 'message'" };

interface Case {
  rest: { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: unknown };
  graphql: { query: string; variables?: Record<string, unknown> };
  code: string;
  renames?: Record<string, string>;
}

const REVOKE = 'mutation($id: ID!) { revokeKey(id: $id) { id } }';

let available: string;
let taken: string;
/** A key of another account: as absent as one that never existed. */
let othersKey: string;
/** An order just placed, and one delivered: neither changes, as every case below is refused. */
let placed: string;
let delivered: string;
it.beforeAll(async ({ t }) => {
  const pet = async (status: string) =>
    String((await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Stock', categoryId: 1, status } })).json().id);
  const order = async () =>
    String((await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: Number(await pet('available')) } })).json().id);
  othersKey = String((await createApiKey(t.db, 'someone-else')).id);
  available = await pet('available');
  taken = await pet('sold');
  placed = await order();
  delivered = await order();
  for (const status of ['approved', 'delivered'])
    await t.call({ method: 'PATCH', url: `/v1/store/orders/${delivered}`, payload: { status } });
});

const PLACE = 'mutation($i: PlaceOrderInput!) { placeOrder(input: $i) { id } }';
const CREATE = 'mutation($i: NewPetInput!) { createPet(input: $i) { id } }';
const SEND = 'mutation($m: String!) { sendMessage(message: $m) { id } }';
const ADVANCE = 'mutation($id: ID!, $s: OrderStatus!) { advanceOrder(id: $id, status: $s) { id } }';
const CANCEL = 'mutation($id: ID!) { cancelOrder(id: $id) { cancelledOrderId } }';
const ordersCursor = Buffer.from('orders:1').toString('base64url');
const petsCursor = Buffer.from('pets:1').toString('base64url');
const TOO_BIG = '9007199254740992';

/** A name, and the case itself, made once the pets it refers to exist. */
type CaseEntry = [string, () => Case];

const cases: CaseEntry[] = [
  // listPets / pets
  [
    'pets: a page size over 100',
    () => ({
      rest: { url: '/v1/pets?limit=101' },
      graphql: { query: '{ pets(first: 101) { totalCount } }' },
      code: 'VALIDATION_FAILED',
      renames: LIST,
    }),
  ],
  [
    'pets: a page size of 0',
    () => ({
      rest: { url: '/v1/pets?limit=0' },
      graphql: { query: '{ pets(first: 0) { totalCount } }' },
      code: 'VALIDATION_FAILED',
      renames: LIST,
    }),
  ],
  [
    'pets: a cursor that is not one',
    () => ({
      rest: { url: '/v1/pets?cursor=bm9wZQ' },
      graphql: { query: '{ pets(after: "bm9wZQ") { totalCount } }' },
      code: 'INVALID_CURSOR',
    }),
  ],
  [
    'pets: an orders cursor',
    () => ({
      rest: { url: `/v1/pets?cursor=${ordersCursor}` },
      graphql: { query: `{ pets(after: "${ordersCursor}") { totalCount } }` },
      code: 'INVALID_CURSOR',
    }),
  ],
  // getPet / pet
  ['pet: absent', () => ({ rest: { url: '/v1/pets/999999' }, graphql: { query: '{ pet(id: "999999") { id } }' }, code: 'PET_NOT_FOUND' })],
  [
    'pet: id 0',
    () => ({
      rest: { url: '/v1/pets/0' },
      graphql: { query: '{ pet(id: "0") { id } }' },
      code: 'VALIDATION_FAILED',
      renames: BY_ID('petId'),
    }),
  ],
  [
    'pet: id not decimal',
    () => ({
      rest: { url: '/v1/pets/0x10' },
      graphql: { query: '{ pet(id: "0x10") { id } }' },
      code: 'VALIDATION_FAILED',
      renames: BY_ID('petId'),
    }),
  ],
  [
    'pet: id over 2^53-1',
    () => ({
      rest: { url: `/v1/pets/${TOO_BIG}` },
      graphql: { query: `{ pet(id: "${TOO_BIG}") { id } }` },
      code: 'VALIDATION_FAILED',
      renames: BY_ID('petId'),
    }),
  ],
  // createPet
  ...[
    ['a name too long', { name: 'x'.repeat(101), categoryId: 1 }],
    ['an empty name', { name: '', categoryId: 1 }],
    ['a blank name', { name: '   ', categoryId: 1 }],
    ['a lone surrogate', { name: '\ud800', categoryId: 1 }],
    ['categoryId 0', { name: 'A', categoryId: 0 }],
  ].map(([label, input]): CaseEntry => [
    `createPet: ${String(label)}`,
    () => ({
      rest: { method: 'POST' as const, url: '/v1/pets', payload: input },
      graphql: { query: CREATE, variables: { i: input } },
      code: 'VALIDATION_FAILED',
    }),
  ]),
  // listStoreOrders / orders
  [
    'orders: a page size over 100',
    () => ({
      rest: { url: '/v1/store/orders?limit=101' },
      graphql: { query: '{ orders(first: 101) { totalCount } }' },
      code: 'VALIDATION_FAILED',
      renames: LIST,
    }),
  ],
  [
    'orders: a pets cursor',
    () => ({
      rest: { url: `/v1/store/orders?cursor=${petsCursor}` },
      graphql: { query: `{ orders(after: "${petsCursor}") { totalCount } }` },
      code: 'INVALID_CURSOR',
    }),
  ],
  // getStoreOrder / order
  [
    'order: absent',
    () => ({ rest: { url: '/v1/store/orders/424242' }, graphql: { query: '{ order(id: "424242") { id } }' }, code: 'ORDER_NOT_FOUND' }),
  ],
  [
    'order: id 0',
    () => ({
      rest: { url: '/v1/store/orders/0' },
      graphql: { query: '{ order(id: "0") { id } }' },
      code: 'VALIDATION_FAILED',
      renames: BY_ID('orderId'),
    }),
  ],
  // placeStoreOrder / placeOrder
  [
    'placeOrder: an absent pet',
    () => ({
      rest: { method: 'POST', url: '/v1/store/orders', payload: { petId: 999999 } },
      graphql: { query: PLACE, variables: { i: { petId: '999999' } } },
      code: 'PET_NOT_FOUND',
    }),
  ],
  [
    'placeOrder: a sold pet',
    () => ({
      rest: { method: 'POST', url: '/v1/store/orders', payload: { petId: Number(taken) } },
      graphql: { query: PLACE, variables: { i: { petId: taken } } },
      code: 'PET_NOT_AVAILABLE',
    }),
  ],
  [
    'placeOrder: petId 0',
    () => ({
      rest: { method: 'POST', url: '/v1/store/orders', payload: { petId: 0 } },
      graphql: { query: PLACE, variables: { i: { petId: '0' } } },
      code: 'VALIDATION_FAILED',
    }),
  ],
  [
    'placeOrder: quantity 0',
    () => ({
      rest: { method: 'POST', url: '/v1/store/orders', payload: { petId: Number(available), quantity: 0 } },
      graphql: { query: PLACE, variables: { i: { petId: available, quantity: 0 } } },
      code: 'VALIDATION_FAILED',
    }),
  ],
  [
    'placeOrder: a bad date',
    () => ({
      rest: { method: 'POST', url: '/v1/store/orders', payload: { petId: Number(available), shipDate: 'tomorrow' } },
      graphql: { query: PLACE, variables: { i: { petId: available, shipDate: 'tomorrow' } } },
      code: 'VALIDATION_FAILED',
    }),
  ],
  // advanceStoreOrder / advanceOrder
  [
    'advanceOrder: absent',
    () => ({
      rest: { method: 'PATCH', url: '/v1/store/orders/424242', payload: { status: 'approved' } },
      graphql: { query: ADVANCE, variables: { id: '424242', s: 'approved' } },
      code: 'ORDER_NOT_FOUND',
    }),
  ],
  [
    'advanceOrder: id 0',
    () => ({
      rest: { method: 'PATCH', url: '/v1/store/orders/0', payload: { status: 'approved' } },
      graphql: { query: ADVANCE, variables: { id: '0', s: 'approved' } },
      code: 'VALIDATION_FAILED',
      renames: BY_ID('orderId'),
    }),
  ],
  [
    'advanceOrder: a skipped step',
    () => ({
      rest: { method: 'PATCH', url: `/v1/store/orders/${placed}`, payload: { status: 'delivered' } },
      graphql: { query: ADVANCE, variables: { id: placed, s: 'delivered' } },
      code: 'INVALID_ORDER_TRANSITION',
    }),
  ],
  [
    'advanceOrder: back to placed',
    () => ({
      rest: { method: 'PATCH', url: `/v1/store/orders/${placed}`, payload: { status: 'placed' } },
      graphql: { query: ADVANCE, variables: { id: placed, s: 'placed' } },
      code: 'INVALID_ORDER_TRANSITION',
    }),
  ],
  // cancelStoreOrder / cancelOrder
  [
    'cancelOrder: absent',
    () => ({
      rest: { method: 'DELETE', url: '/v1/store/orders/424242' },
      graphql: { query: CANCEL, variables: { id: '424242' } },
      code: 'ORDER_NOT_FOUND',
    }),
  ],
  [
    'cancelOrder: id over 2^53-1',
    () => ({
      rest: { method: 'DELETE', url: `/v1/store/orders/${TOO_BIG}` },
      graphql: { query: CANCEL, variables: { id: TOO_BIG } },
      code: 'VALIDATION_FAILED',
      renames: BY_ID('orderId'),
    }),
  ],
  [
    'cancelOrder: delivered',
    () => ({
      rest: { method: 'DELETE', url: `/v1/store/orders/${delivered}` },
      graphql: { query: CANCEL, variables: { id: delivered } },
      code: 'INVALID_ORDER_TRANSITION',
    }),
  ],
  // sendMessage
  [
    'sendMessage: empty',
    () => ({
      rest: { method: 'POST', url: '/messages', payload: { message: '' } },
      graphql: { query: SEND, variables: { m: '' } },
      code: 'VALIDATION_FAILED',
      renames: MESSAGE,
    }),
  ],
  [
    'sendMessage: too long',
    () => ({
      rest: { method: 'POST', url: '/messages', payload: { message: 'x'.repeat(4097) } },
      graphql: { query: SEND, variables: { m: 'x'.repeat(4097) } },
      code: 'VALIDATION_FAILED',
      renames: MESSAGE,
    }),
  ],
  // getMessage / message
  [
    'message: an id that is not msg_<digits>',
    () => ({
      rest: { url: '/messages/abc' },
      graphql: { query: '{ message(id: "abc") { id } }' },
      code: 'VALIDATION_FAILED',
      renames: BY_ID('id'),
    }),
  ],
  [
    'message: absent',
    () => ({ rest: { url: '/messages/msg_1' }, graphql: { query: '{ message(id: "msg_1") { id } }' }, code: 'MESSAGE_NOT_FOUND' }),
  ],
  // createKey / revokeKey
  [
    'createKey: an empty name',
    () => ({
      rest: { method: 'POST', url: '/v1/keys', payload: { name: '' } },
      graphql: { query: 'mutation { createKey(input: { name: "" }) { id } }' },
      code: 'VALIDATION_FAILED',
    }),
  ],
  [
    'revokeKey: absent',
    () => ({
      rest: { method: 'DELETE', url: '/v1/keys/424242' },
      graphql: { query: REVOKE, variables: { id: '424242' } },
      code: 'API_KEY_NOT_FOUND',
    }),
  ],
  [
    "revokeKey: another account's key",
    () => ({
      rest: { method: 'DELETE', url: `/v1/keys/${othersKey}` },
      graphql: { query: REVOKE, variables: { id: othersKey } },
      code: 'API_KEY_NOT_FOUND',
    }),
  ],
  [
    'revokeKey: id 0',
    () => ({
      rest: { method: 'DELETE', url: '/v1/keys/0' },
      graphql: { query: REVOKE, variables: { id: '0' } },
      code: 'VALIDATION_FAILED',
      renames: BY_ID('keyId'),
    }),
  ],
];

describe('REST and GraphQL refuse the same input alike: same code, same status, same words', () => {
  it.for(cases)('%s', async ([label, make], { t }) => {
    const { rest: request, graphql: operation, code, renames = {} } = make();
    const rest = await t.call({
      method: request.method ?? 'GET',
      url: request.url,
      ...(request.payload === undefined ? {} : { payload: request.payload as object }),
    });
    const restError = expectErrorBody(rest, code);
    const { body } = await graphql(t, operation.query, operation.variables);
    const [error] = body.errors ?? [];
    expect(error?.extensions, label).toEqual({ code, status: rest.statusCode });
    const expected = Object.entries(renames).reduce((message, [from, to]) => message.replaceAll(from, to), restError.message);
    expect(error?.message, label).toBe(expected);
  });

  it('answers each kind of missing or wrong key with the same words', async ({ t }) => {
    for (const headers of [{}, { authorization: 'psk_nope' }, { authorization: `Bearer psk_${'A'.repeat(40)}` }] as Record<
      string,
      string
    >[]) {
      const rest = expectErrorBody(await t.app.inject({ url: '/v1/pets', headers }), 'UNAUTHORIZED');
      const { res, body } = await graphql(t, '{ pets { totalCount } }', undefined, headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="petstore"');
      expect(body.errors?.[0]).toEqual({ message: rest.message, extensions: { code: 'UNAUTHORIZED', status: 401 } });
    }
  });

  // GraphQL's own type system refuses these before any service runs, in graphql-js's words;
  // REST's schema check refuses the same input. The code and status agree; the words cannot.
  it.for([
    ['an unknown status', '/v1/pets?status=lost', '{ pets(status: lost) { totalCount } }'],
    ['a categoryId over 2^53-1', { name: 'A', categoryId: 9007199254740992 }, CREATE],
    ['a missing name', { categoryId: 1 }, CREATE],
    ['a field that is not in the input', { name: 'A', categoryId: 1, id: 5 }, CREATE],
  ] as const)('refuses %s with the same code where GraphQL types decide', async ([_label, rest, query], { t }) => {
    const restRes =
      typeof rest === 'string' ? await t.call({ url: rest }) : await t.call({ method: 'POST', url: '/v1/pets', payload: rest });
    expectErrorBody(restRes, 'VALIDATION_FAILED');
    const { res, body } = typeof rest === 'string' ? await graphql(t, query) : await graphql(t, query, { i: rest });
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
  });
});
