import { composeServices as composeWithApollo } from '@apollo/composition';
import { composeServices as composeWithTheGuild } from '@theguild/federation-composition';
import { parse } from 'graphql';
import { createApiKey } from '../../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../../helpers/fixtures.ts';
import { graphql } from '../../helpers/graphql.ts';
import { REVIEWS_SDL } from '../../helpers/reviews-subgraph.ts';
import { spyOnSelects } from '../../helpers/select-spy.ts';
import type { TestApp } from '../../helpers/test-app.ts';

const selects: string[] = [];
it.override('appEnv', { GRAPHQL_FEDERATION: 'true' });
it.override('appOptions', { wrapDb: spyOnSelects((table) => selects.push(table)) });

it.beforeAll(async ({ t }) => {
  for (const name of ['Rex', 'Tom', 'Kiki']) await t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1 } });
  await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: 2 } });
});

const ENTITIES = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Pet { id name } ... on Order { id petId status } } }';

async function sdlOf(t: TestApp): Promise<string> {
  const { body } = await graphql(t, '{ _service { sdl } }');
  return (body.data as { _service: { sdl: string } })._service.sdl;
}

describe('the Apollo Federation v2 subgraph (GRAPHQL_FEDERATION=true)', () => {
  it('publishes its SDL with Pet and Order as entities and the cost directives, to a caller with a key', async ({ t }) => {
    const keyless = await graphql(t, '{ _service { sdl } }', undefined, {});
    expect(keyless.res.statusCode).toBe(401);
    const sdl = await sdlOf(t);
    expect(sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@cost", "@listSize"])');
    expect(sdl).toMatch(/type Pet\s+@key\(fields: "id"\)/);
    expect(sdl).toMatch(/type Order\s+@key\(fields: "id"\)/);
    expect(sdl).toContain('@listSize(assumedSize: 20, slicingArguments: ["first", "last"], sizedFields: ["nodes", "edges"])');
  });

  it('composes with another team’s subgraph under both composers, which keep @cost and @listSize', async ({ t }) => {
    const services = [
      { name: 'petstore', typeDefs: parse(await sdlOf(t)), url: 'http://petstore.internal/graphql' },
      { name: 'reviews', typeDefs: parse(REVIEWS_SDL), url: 'http://reviews.internal/graphql' },
    ];
    for (const compose of [composeWithTheGuild, composeWithApollo]) {
      const composed = compose(services);
      expect(composed.errors ?? []).toEqual([]);
      const supergraph = composed.supergraphSdl ?? '';
      expect(supergraph).toMatch(
        /pets\(first: Int, after: String, last: Int, before: String, status: PetStatus\): PetConnection! @join__field\(graph: PETSTORE\) @cost\(weight: 10\) @listSize\(/,
      );
      expect(supergraph).toMatch(
        /totalCount: Int! @join__field\(graph: PETSTORE\) @cost\(weight: 10\)|totalCount: Int! @cost\(weight: 10\)/,
      );
      expect(supergraph).toMatch(/reviews: \[Review!\]! @join__field\(graph: REVIEWS\)/);
    }
  });

  it('resolves a batch of references in one query per type, each failure in its own place', async ({ t }) => {
    selects.length = 0;
    const representations = [
      { __typename: 'Pet', id: '3' },
      { __typename: 'Pet', id: '1' },
      { __typename: 'Pet', id: '999' },
      { __typename: 'Order', id: '1' },
      { __typename: 'Pet', id: 'seven' },
    ];
    const { body } = await graphql(t, ENTITIES, { r: representations });
    expect(body.data?._entities).toEqual([
      { id: '3', name: 'Kiki' },
      { id: '1', name: 'Rex' },
      null,
      { id: '1', petId: '2', status: 'placed' },
      null,
    ]);
    expect(body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
      [['_entities', 2], 'PET_NOT_FOUND'],
      [['_entities', 4], 'VALIDATION_FAILED'],
    ]);
    expect(selects.filter((table) => table === 'pets')).toHaveLength(1);
    expect(selects.filter((table) => table === 'orders')).toHaveLength(1);
  });

  it('resolves only the caller’s own orders, as everywhere', async ({ t }) => {
    const stranger = { authorization: `Bearer ${(await createApiKey(t.db, 'federation-stranger')).key}` };
    const mine = await graphql(t, ENTITIES, { r: [{ __typename: 'Order', id: '1' }] });
    expect(mine.body.data?._entities).toEqual([{ id: '1', petId: '2', status: 'placed' }]);
    const theirs = await graphql(t, ENTITIES, { r: [{ __typename: 'Order', id: '1' }] }, stranger);
    expect(theirs.body.data?._entities).toEqual([null]);
    expect(theirs.body.errors?.[0]?.extensions).toEqual({ code: 'ORDER_NOT_FOUND', status: 404 });
  });

  it('passes a reference’s query through the same limits: the key first, then the cost', async ({ t }) => {
    const keyless = await graphql(t, ENTITIES, { r: [{ __typename: 'Pet', id: '1' }] }, {});
    expect(keyless.res.statusCode).toBe(401);
    expect(keyless.body.errors?.[0]?.extensions).toEqual({ code: 'UNAUTHORIZED', status: 401 });
  });
});

describe('_entities under the cost limit and against hostile references', () => {
  const pets = (n: number) => Array.from({ length: n }, (_, i) => ({ __typename: 'Pet', id: String((i % 3) + 1) }));

  it('prices a batch by its references, so aliases over one large batch are refused before anything runs', async ({ t }) => {
    selects.length = 0;
    // Each Pet reference with its orders and their pets costs 1 + (1 + 1 + (1 + 1)) = 5 (10 a batch besides): 1,000 cost over 5,000.
    const deep = '... on Pet { id orders { id pet { id } } }';
    const aliased = `query($r: [_Any!]!) { a: _entities(representations: $r) { ${deep} } b: _entities(representations: $r) { ${deep} } }`;
    const refused = await graphql(t, aliased, { r: pets(500) });
    expect(refused.res.statusCode).toBe(400);
    expect(refused.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', status: 400 });
    expect(refused.body.errors?.[0]?.message).toMatch(/^The operation costs 5020, over the limit of 5000/);
    expect(selects).toEqual([]);
    // One batch of 300 plain references is 10 + 300: answered.
    const one = await graphql(t, ENTITIES, { r: pets(300) });
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data?._entities).toHaveLength(300);
  });

  it('bounds the references one request may carry (1,000), literal or in variables', async ({ t }) => {
    const over = await graphql(t, ENTITIES, { r: pets(1001) });
    expect(over.res.statusCode).toBe(400);
    expect(over.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', status: 400 });
    expect(over.body.errors?.[0]?.message).toBe('The operation carries 1001 entity references, over the limit of 1000.');
    const split = `query($r: [_Any!]!) { a: _entities(representations: $r) { __typename } b: _entities(representations: $r) { __typename } }`;
    const twice = await graphql(t, split, { r: pets(501) });
    expect(twice.body.errors?.[0]?.message).toBe('The operation carries 1002 entity references, over the limit of 1000.');
  });

  it('answers a reference it cannot read with a coded error in its place, never INTERNAL_ERROR', async ({ t }) => {
    const hostile = [
      { __typename: 'Nope', id: '1' },
      'a string',
      { __typename: 'Pet', id: { nested: true } },
      { __typename: 'Pet', id: 12 },
      { __typename: 'Pet' },
      { id: '1' },
      [{ __typename: 'Pet', id: '1' }],
      { __typename: '__Schema', id: '1' },
      { __typename: 'PetConnection', id: '1' },
      { __typename: 'Pet', id: '1' },
    ];
    const { res, body } = await graphql(t, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Pet { id } } }', { r: hostile });
    expect(res.statusCode).toBe(200);
    // Each bad reference is null with its own VALIDATION_FAILED; the good one is answered.
    expect(body.data?._entities).toEqual([null, null, null, null, null, null, null, null, null, { id: '1' }]);
    expect(body.errors?.map((error) => [error.path?.[1], error.extensions?.code])).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 8].map((at) => [at, at === 3 ? 'PET_NOT_FOUND' : 'VALIDATION_FAILED']),
    );
  });
});

describe('_entities whose every reference fails', () => {
  const missing = Array.from({ length: 1000 }, (_, i) => ({ __typename: 'Pet', id: String(100_000 + i) }));
  const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Pet { id name } } }';

  it.for([
    ['application/graphql-response+json', (text: string) => text],
    ['application/json', (text: string) => text],
    ['text/event-stream', (text: string) => /^data: (\{.*\})$/m.exec(text)?.[1] ?? text],
    ['multipart/mixed', (text: string) => /\r\n\r\n(\{[\s\S]*?\})\r\n-/.exec(text)?.[1] ?? text],
  ] as const)(
    'answers each reference null in its place, and lists at most 100 errors, saying how many more, as %s',
    async ([accept, json], { t }) => {
      const res = await t.call({
        method: 'POST',
        url: '/graphql',
        headers: { accept, 'content-type': 'application/json' },
        payload: { query, variables: { r: missing } },
      });
      expect(res.statusCode).toBe(200);
      const body = JSON.parse(json(res.body)) as {
        data: { _entities: unknown[] };
        errors: { message: string; path?: unknown[]; extensions: object }[];
      };
      expect(body.data._entities).toEqual(missing.map(() => null));
      expect(body.errors).toHaveLength(101);
      expect(body.errors.slice(0, 100).map((error) => error.path)).toEqual(missing.slice(0, 100).map((_, i) => ['_entities', i]));
      expect(body.errors[0]).toEqual({
        message: 'Pet 100000 could not be found.',
        locations: [{ line: 1, column: 23 }],
        path: ['_entities', 0],
        extensions: { code: 'PET_NOT_FOUND', status: 404 },
      });
      expect(body.errors[100]).toEqual({
        message: '900 more errors were left out: an answer lists at most 100.',
        extensions: { code: 'TOO_MANY_ERRORS', status: 400 },
      });
    },
  );

  it('is the same answer with the stock executor (GRAPHQL_JIT=false)', async ({ t, makeApp }) => {
    const stock = await makeApp({ GRAPHQL_FEDERATION: 'true', GRAPHQL_JIT: 'false' });
    const [jit, plain] = await Promise.all([graphql(t, query, { r: missing }), graphql(stock, query, { r: missing })]);
    expect(plain.body).toEqual(jit.body);
    expect(plain.body.errors).toHaveLength(101);
  });
});

describe('the same graph either way', () => {
  it('answers every query as the server without federation does', async ({ t, makeApp }) => {
    const plain = await makeApp();
    for (const app of [plain]) {
      for (const name of ['Rex', 'Tom', 'Kiki']) await app.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1 } });
      await app.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: 2 } });
    }
    for (const query of [
      '{ pets(first: 3) { totalCount nodes { id name status orders { id status pet { name } } } pageInfo { hasNextPage endCursor } } }',
      '{ orders { nodes { id petId pet { id name orders { id } } } } }',
      '{ pet(id: 2) { name } order(id: 1) { status } myKeys { revokedAt } }',
    ]) {
      const [federated, alone] = [await graphql(t, query), await graphql(plain, query)];
      expect(federated.body, query).toEqual(alone.body);
      expect(federated.body.errors, query).toBeUndefined();
    }
  });
});

describe('without GRAPHQL_FEDERATION', () => {
  it('has no federation fields', async ({ makeApp }) => {
    const t = await makeApp();
    const { body } = await graphql(t, '{ _service { sdl } }');
    expect(body.errors?.[0]?.message).toBe('Cannot query field "_service" on type "Query".');
  });
});
