import type { InjectOptions } from 'fastify';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { spyOnSelects } from '../helpers/select-spy.ts';
import type { TestApp } from '../helpers/test-app.ts';

// graphql-jit is speed, not behaviour: with it off, every answer (status, headers, body) is what
// the stock executor gives. One difference is meant: the stock executor orders an object's
// fields as their values resolve, graphql-jit in the order the query asks for them, as the spec
// requires. So bodies are compared as JSON values, byte length and the top-level order (errors
// before data) as sent, and the field order once, on its own.

const SETUPS = {
  stock: { GRAPHQL_JIT: 'false' },
  jit: { GRAPHQL_JIT: 'true' },
};

type Case = { name: string; body?: unknown; raw?: string; accept?: string; key?: false; get?: string };
const post = (name: string, query: string, variables?: unknown): Case => ({
  name,
  body: variables === undefined ? { query } : { query, variables },
});

const LIST = '{ pets(first: 2) { nodes { id name categoryId status } } }';
const PAGE = 'query($n: Int, $s: PetStatus) { pets(first: $n, status: $s) { totalCount nodes { id status } } }';
const ONE = 'query($id: ID!) { pet(id: $id) { id name } }';
const CREATE = 'mutation($input: NewPetInput!) { createPet(input: $input) { id name categoryId status } }';
const TWO_OPS = 'query A { pets(first: 1) { totalCount } } query B { orders { totalCount } }';

const CASES: Case[] = [
  post('the list', LIST),
  post('Int and enum variables', PAGE, { n: 2, s: 'available' }),
  post('an unknown enum value in a variable', PAGE, { s: 'lost' }),
  post('a required variable missing', ONE, {}),
  post('null for a non-null variable', ONE, { id: null }),
  post('a variable of the wrong type', PAGE, { n: 'two' }),
  post('two bad variables', PAGE, { n: 'two', s: 'lost' }),
  post('a resolver that fails unexpectedly (masked)', '{ message(id: "msg_1") { id } }'),
  post('an error next to data', '{ pets(first: 1) { totalCount } message(id: "msg_1") { id } }'),
  post('a domain error from a resolver', ONE, { id: 'abc' }),
  post('a missing pet', ONE, { id: '999999' }),
  { name: 'operationName picks one of two', body: { query: TWO_OPS, operationName: 'A' } },
  { name: 'an unknown operationName', body: { query: TWO_OPS, operationName: 'C' } },
  post('two operations and no operationName', TWO_OPS),
  post('a validation error', '{ pets { nope } }'),
  post('a syntax error', '{ pets {'),
  { name: 'a body that is not JSON', raw: '{"query": ' },
  { name: 'a null body', raw: 'null' },
  { name: 'an array body', raw: '[]' },
  { name: 'an empty object body', raw: '{}' },
  { name: 'variables as a string', body: { query: PAGE, variables: '{"n":1}' } },
  { name: 'an unexpected parameter', body: { query: LIST, other: 1 } },
  post('a mutation', CREATE, { input: { name: 'Rex', categoryId: 3 } }),
  post('a mutation refused by the service', CREATE, { input: { name: '   ', categoryId: 3 } }),
  // graphql-jit 0.8 would pass the omitted $status as null: the field must be left out, as the stock executor does.
  post(
    'a variable of an input field left out',
    'mutation($name: String!, $status: PetStatus) { createPet(input: { name: $name, categoryId: 1, status: $status }) { name status } }',
    { name: 'Dee' },
  ),
  post(
    'aliased mutations',
    'mutation { a: createPet(input: { name: "A", categoryId: 1 }) { id } b: createPet(input: { name: "B", categoryId: 2 }) { id } }',
  ),
  { ...post('graphql-response+json', LIST), accept: 'application/graphql-response+json' },
  { ...post('graphql-response+json, with an error', ONE, {}), accept: 'application/graphql-response+json' },
  { ...post('both JSON types', LIST), accept: 'application/graphql-response+json, application/json' },
  { ...post('any type', LIST), accept: '*/*' },
  { ...post('only HTML', LIST), accept: 'text/html' },
  { ...post('a subscription asking for JSON', 'subscription { petCreated { id } }'), accept: 'application/json' },
  { ...post('no key', LIST), key: false },
  { name: 'a GET query', get: `/graphql?query=${encodeURIComponent(LIST)}` },
];

function request(t: TestApp, c: Case): InjectOptions {
  const headers: Record<string, string> = { ...(c.key === false ? {} : t.auth), accept: c.accept ?? 'application/json' };
  if (c.get) return { method: 'GET', url: c.get, headers };
  return {
    method: 'POST',
    url: '/graphql',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: c.raw ?? JSON.stringify(c.body),
  };
}

/**
 * What a client sees, less what differs on every request, and on every database: a tag names
 * the versions its database was read under, which are random (migration 0011), so only its
 * shape is compared.
 */
function seen(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  const { date: _date, 'x-request-id': _id, etag, ...headers } = res.headers;
  const json = parsed(res.body);
  const tag = etag === undefined ? {} : { etag: /^W\/"[\w-]{22}"$/.test(String(etag)) ? 'a weak tag' : etag };
  return { status: res.statusCode, headers: { ...headers, ...tag }, body: json ?? res.body, top: json ? Object.keys(json) : null };
}

function parsed(body: string): Record<string, unknown> | null {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return null;
  }
}

// Messages fail to load, so one field can fail unexpectedly while others answer.
const failingMessages = spyOnSelects((table) => {
  if (table === 'messages') throw new Error('disk on fire');
});

describe('graphql-jit', () => {
  it('answers every case exactly as the stock executor does', async ({ makeApp }) => {
    const apps = await Promise.all(
      Object.entries(SETUPS).map(async ([name, env]) => {
        const t = await makeApp({ ...env, RATE_LIMIT_PER_MINUTE: '0' }, { wrapDb: failingMessages });
        for (const pet of [
          { name: 'Ada', categoryId: 1 },
          { name: 'Bo', categoryId: 2, status: 'sold' },
          { name: 'Cy', categoryId: 3 },
        ]) {
          await t.call({ method: 'POST', url: '/v1/pets', payload: pet });
        }
        return { name, t };
      }),
    );
    const [{ t: stock }, ...others] = apps as [(typeof apps)[number], ...typeof apps];
    for (const c of CASES) {
      const expected = seen(await stock.app.inject(request(stock, c)));
      expect(expected.status, c.name).toBeLessThan(500);
      for (const other of others) {
        expect(seen(await other.t.app.inject(request(other.t, c))), `${c.name} (${other.name})`).toEqual(expected);
      }
    }
  });

  it('answers fields in the order the query asks for them, as the spec says, with graphql-jit', async ({ makeApp }) => {
    const t = await makeApp({ GRAPHQL_JIT: 'true' });
    for (const query of ['{ pets { totalCount nodes { id } } }', '{ pets { nodes { id } totalCount } }']) {
      const res = await t.app.inject(request(t, { name: query, body: { query } }));
      const pets = (JSON.parse(res.body) as { data: { pets: object } }).data.pets;
      expect(Object.keys(pets)).toEqual(query.includes('{ totalCount') ? ['totalCount', 'nodes'] : ['nodes', 'totalCount']);
    }
  });

  it('keeps introspection off in production, with graphql-jit and without, over POST and GET', async ({ makeApp }) => {
    for (const env of Object.values(SETUPS)) {
      const t = await makeApp({ ...env, NODE_ENV: 'production' });
      const query = '{ __schema { types { name } } }';
      for (const res of [
        await t.app.inject({
          method: 'POST',
          url: '/graphql',
          headers: { ...t.auth, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
          payload: { query },
        }),
        await t.app.inject({
          method: 'GET',
          url: `/graphql?query=${encodeURIComponent(query)}`,
          headers: { ...t.auth, accept: 'application/graphql-response+json' },
        }),
      ]) {
        expect(res.statusCode, res.body).toBe(400);
        expect(res.body).toContain('introspection has been disabled');
        expect(res.body).not.toContain('"types"');
      }
    }
  });
});
