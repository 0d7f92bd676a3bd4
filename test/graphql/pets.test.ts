import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { spyOnSelects } from '../helpers/select-spy.ts';

/** Tables read by each SELECT the app runs, in order. */
const selects: string[] = [];
it.override('appOptions', { wrapDb: spyOnSelects((table) => selects.push(table)) });

const CREATE = `mutation($input: NewPetInput!) { createPet(input: $input) { id name categoryId status } }`;

describe('createPet', () => {
  it('creates a pet with status defaulting to available, and the largest exact categoryId', async ({ t }) => {
    const { res, body } = await graphql(t, CREATE, { input: { name: 'Rex', categoryId: 9007199254740991 } });
    expect(res.statusCode).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.createPet).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'Rex',
      categoryId: 9007199254740991,
      status: 'available',
    });
  });

  it.for([
    ['an empty name', { name: '', categoryId: 1 }, /'name' must not be empty/],
    ['a blank name', { name: '  ', categoryId: 1 }, /non-blank/],
    ['a long name', { name: 'x'.repeat(101), categoryId: 1 }, /at most 100 characters/],
    ['a zero categoryId', { name: 'A', categoryId: 0 }, /'categoryId' must be at least 1/],
    ['a null status', { name: 'A', categoryId: 1, status: null }, /'status' must be a string/],
  ] as const)("refuses %s with VALIDATION_FAILED (REST's 400 code), storing nothing", async ([_label, input, message], { t }) => {
    const before = await t.count('pets');
    const { body } = await graphql(t, CREATE, { input });
    expect(body.data).toBeNull();
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
    expect(body.errors?.[0]?.message).toMatch(message);
    expect(await t.count('pets')).toBe(before);
  });

  it.for([
    ['2^53 (beyond SafeInt)', { name: 'A', categoryId: 9007199254740992 }],
    ['a fraction', { name: 'A', categoryId: 2.5 }],
    ['a string', { name: 'A', categoryId: '5' }],
    ['an unknown status', { name: 'A', categoryId: 1, status: 'lost' }],
    ['an unknown field', { name: 'A', categoryId: 1, id: '9' }],
  ] as const)('refuses %s before execution: HTTP 400, VALIDATION_FAILED, nothing stored', async ([_label, input], { t }) => {
    const before = await t.count('pets');
    const { res, body } = await graphql(t, CREATE, { input });
    expect(res.statusCode).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
    expect(await t.count('pets')).toBe(before);
  });

  it('refuses a categoryId literal beyond 2^53 with a clear error', async ({ t }) => {
    const { res, body } = await graphql(t, 'mutation { createPet(input: {name: "A", categoryId: 9007199254740993}) { id } }');
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.message).toMatch(/SafeInt cannot represent unsafe integer value/);
  });
});

describe('pets', () => {
  it.beforeAll(async ({ t }) => {
    for (let i = 0; i < 12; i++) await graphql(t, CREATE, { input: { name: `p${i}`, categoryId: 2, status: i % 2 ? 'sold' : 'pending' } });
  });

  it('pages with first/after in ascending id order; edges, nodes and pageInfo agree', async ({ t }) => {
    const query = `query($after: String) { pets(first: 5, status: sold, after: $after) {
      edges { cursor node { id status } } nodes { id } pageInfo { hasNextPage endCursor } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const { body } = await graphql(t, query, { after });
      const conn = body.data?.pets as {
        edges: { cursor: string; node: { id: string; status: string } }[];
        nodes: { id: string }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
      expect(conn.nodes.map((n) => n.id)).toEqual(conn.edges.map((e) => e.node.id));
      expect(conn.edges.length).toBeGreaterThan(0);
      expect(conn.edges.filter((e) => e.node.status !== 'sold')).toEqual([]);
      expect(conn.pageInfo.endCursor).toBe(conn.edges.at(-1)?.cursor ?? null);
      seen.push(...conn.nodes.map((n) => n.id));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(6);
    expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => a - b));
  });

  it('counts totalCount for the filter, and only when it is selected', async ({ t }) => {
    const { body } = await graphql(t, '{ all: pets { totalCount } sold: pets(status: sold, first: 1) { totalCount } }');
    expect(body.data).toEqual({ all: { totalCount: 13 }, sold: { totalCount: 6 } });

    // The key was verified above and nothing has been written since, so it is not read again.
    selects.length = 0;
    await graphql(t, '{ pets(first: 3) { nodes { id } } }');
    expect(selects).toEqual(['pets']);
    selects.length = 0;
    await graphql(t, '{ pets(first: 3) { totalCount nodes { id } } }');
    // The count is one row kept by the database's triggers, never a scan of the pets.
    expect(selects).toEqual(['pets', 'row_counts']);
  });

  it.for([
    ['first: 0', /'first' must be at least 1/],
    ['first: 101', /'first' must be at most 100/],
    ['first: -5', /'first' must be at least 1/],
    ['first: null', /'first' must be an integer/],
    ['after: "garbage"', /cursor is not valid/],
  ] as const)('refuses %s with a 400 code', async ([args, message], { t }) => {
    const { body } = await graphql(t, `{ pets(${args}) { totalCount } }`);
    expect(body.data).toBeNull();
    expect(body.errors?.[0]?.extensions?.status).toBe(400);
    expect(body.errors?.[0]?.message).toMatch(message);
  });

  it('refuses a wrongly cased status before execution', async ({ t }) => {
    const { res, body } = await graphql(t, '{ pets(status: Sold) { totalCount } }');
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});

describe('pet (deprecated)', () => {
  it('returns a pet by id', async ({ t }) => {
    const created = (await graphql(t, CREATE, { input: { name: 'Solo', categoryId: 4, status: 'pending' } })).body.data?.createPet as {
      id: string;
    };
    const { body } = await graphql(t, `{ pet(id: "${created.id}") { id name categoryId status } }`);
    expect(body.data?.pet).toEqual({ id: created.id, name: 'Solo', categoryId: 4, status: 'pending' });
  });

  it("is null with PET_NOT_FOUND (REST's not-found code) for an absent pet", async ({ t }) => {
    const { res, body } = await graphql(t, '{ pet(id: "424242") { id } }');
    expect(res.statusCode).toBe(200);
    expect(body.data).toEqual({ pet: null });
    expect(body.errors).toEqual([expect.objectContaining({ path: ['pet'], extensions: { code: 'PET_NOT_FOUND', status: 404 } })]);
  });

  it('is null with VALIDATION_FAILED for an id that is not a positive safe integer', async ({ t }) => {
    for (const id of ['abc', '0', '-1', '9007199254740992']) {
      const { body } = await graphql(t, `{ pet(id: "${id}") { id } }`);
      expect(body.data).toEqual({ pet: null });
      expect(body.errors?.[0]?.extensions).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
    }
  });

  it('is marked deprecated in the schema, naming the removal date and pets(status:)', async ({ t }) => {
    const { body } = await graphql(
      t,
      '{ __type(name: "Query") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }',
    );
    const pet = (body.data?.__type as { fields: { name: string; isDeprecated: boolean; deprecationReason: string }[] }).fields.find(
      (f) => f.name === 'pet',
    );
    expect(pet?.isDeprecated).toBe(true);
    expect(pet?.deprecationReason).toMatch(/2030-12-05/);
    expect(pet?.deprecationReason).toMatch(/pets\(status:\)/);
  });
});
