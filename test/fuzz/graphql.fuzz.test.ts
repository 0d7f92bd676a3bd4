import fc from 'fast-check';
import { describe, it } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { anyObject, expectCleanGraphQLAnswer, jsonValue, property } from './fuzz-support.ts';

it.override('appEnv', { RATE_LIMIT_PER_MINUTE: '0', MESSAGE_RATE_LIMIT_PER_MINUTE: '1000000' });
it.beforeAll(async ({ t }) => {
  await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'seed', categoryId: 1 } });
});

const post = (t: TestApp, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { ...t.auth, 'content-type': 'application/json', accept: 'application/json' },
    payload: JSON.stringify(body),
  });

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
      async (variables, t) => {
        expectCleanGraphQLAnswer(await post(t, { query, variables }));
      },
    );
  }

  property(
    'documents from schema tokens',
    fc.array(token, { maxLength: 40 }).map((tokens) => tokens.join(' ')),
    async (query, t) => {
      expectCleanGraphQLAnswer(await post(t, { query }));
    },
  );

  property(
    'arbitrary documents and request shapes',
    fc.oneof(
      fc.string({ maxLength: 300 }).map((query) => ({ query })),
      anyObject,
      jsonValue,
    ),
    async (body, t) => {
      const res = await post(t, body);
      expectCleanGraphQLAnswer(res);
    },
  );
});
