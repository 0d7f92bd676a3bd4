import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTestApp } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { anyObject, expectCleanGraphQLAnswer, expectOnlyValidRows, jsonValue, RUNS } from './fuzz-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '0', MESSAGE_RATE_LIMIT_PER_MINUTE: '1000000' });
  await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'seed', categoryId: 1 } });
});
afterAll(async () => {
  await expectOnlyValidRows(t);
  await t.close();
});

const post = (body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { ...t.auth, 'content-type': 'application/json', accept: 'application/json' },
    payload: JSON.stringify(body),
  });

const property = (name: string, arb: fc.Arbitrary<unknown>, run: (value: never) => Promise<void>) =>
  it(
    name,
    async () => {
      await fc.assert(fc.asyncProperty(arb, run as (value: unknown) => Promise<void>), { numRuns: RUNS });
      await expectOnlyValidRows(t);
    },
    120_000,
  );

const OPERATIONS = {
  createPet: 'mutation($input: NewPetInput!) { createPet(input: $input) { id name categoryId status } }',
  sendMessage: 'mutation($message: String!) { sendMessage(message: $message) { id status } }',
  placeOrder: 'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id status } }',
  pets: 'query($first: Int, $after: String, $status: PetStatus) { pets(first: $first, after: $after, status: $status) { totalCount nodes { id } } }',
  pet: 'query($id: ID!) { pet(id: $id) { id } }',
  orders:
    'query($first: Int, $after: String, $status: OrderStatus) { orders(first: $first, after: $after, status: $status) { totalCount } }',
  message: 'query($id: ID!) { message(id: $id) { id } }',
};

// A document is built from real tokens of the schema, shuffled, so many parse and some run.
const token = fc.constantFrom(
  '{',
  '}',
  '(',
  ')',
  ':',
  '$x',
  '!',
  '...',
  'query',
  'mutation',
  'pets',
  'pet',
  'createPet',
  'sendMessage',
  'orders',
  'placeOrder',
  'input',
  'first',
  'after',
  'status',
  'id',
  'name',
  'nodes',
  'edges',
  'node',
  'totalCount',
  '__schema',
  '__typename',
  'types',
  '"x"',
  '1',
  '-1',
  '1e309',
  'true',
  'null',
  'available',
  '@include(if: true)',
  'a:',
  'fragment F on Query',
  '#',
);

describe('GraphQL under generated input', () => {
  for (const [operation, query] of Object.entries(OPERATIONS)) {
    property(
      `${operation}: generated variables`,
      fc.oneof(
        anyObject,
        fc.record(
          { input: anyObject, message: jsonValue, id: jsonValue, first: jsonValue, after: jsonValue, status: jsonValue },
          { requiredKeys: [] },
        ),
      ),
      async (variables: unknown) => {
        expectCleanGraphQLAnswer(await post({ query, variables }));
      },
    );
  }

  property(
    'documents from schema tokens',
    fc.array(token, { maxLength: 40 }).map((tokens) => tokens.join(' ')),
    async (query: string) => {
      expectCleanGraphQLAnswer(await post({ query }));
    },
  );

  property(
    'arbitrary documents and request shapes',
    fc.oneof(
      fc.string({ maxLength: 300 }).map((query) => ({ query })),
      anyObject,
      jsonValue,
    ),
    async (body: unknown) => {
      const res = await post(body);
      expectCleanGraphQLAnswer(res);
    },
  );
});
