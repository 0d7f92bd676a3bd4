import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../helpers/graphql.ts';
import { expectErrorBody, startTestApp } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const statuses = ['available', 'pending', 'sold'];
  for (let i = 0; i < 23; i++) {
    await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `twin-${i}`, categoryId: 100 + i, status: statuses[(i * 7) % 3] } });
  }
});
afterAll(() => t.close());

interface RestPet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}
const nextCursor = (link: unknown) => (typeof link === 'string' ? /cursor=([^&>]+)/.exec(link)?.[1] : undefined);

async function restPage(limit: number, status: string | null, cursor?: string) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (status) params.set('status', status);
  if (cursor) params.set('cursor', cursor);
  const res = await t.call({ url: `/v1/pets?${params}` });
  return { pets: res.json() as RestPet[], cursor: nextCursor(res.headers.link) };
}

async function graphqlPage(first: number, status: string | null, after?: string) {
  const { body } = await graphql(
    t,
    'query($first: Int, $status: PetStatus, $after: String) { pets(first: $first, status: $status, after: $after) { nodes { id name categoryId status } pageInfo { hasNextPage endCursor } } }',
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
  it.each([
    [5, null],
    [4, 'sold'],
    [20, 'pending'],
    [100, 'available'],
  ])('the same pets in the same order, page by page (page size %i, status %s)', async (size, status) => {
    let restCursor: string | undefined;
    let graphqlCursor: string | undefined;
    let pages = 0;
    do {
      const rest = await restPage(size, status, restCursor);
      const gql = await graphqlPage(size, status, graphqlCursor);
      expect(gql.pets).toEqual(rest.pets);
      expect(gql.cursor).toBe(rest.cursor);
      restCursor = rest.cursor;
      graphqlCursor = gql.cursor;
      pages++;
    } while (restCursor);
    expect(pages).toBeGreaterThan(0);
  });

  it('accepts a cursor from one surface on the other', async () => {
    const rest = await restPage(3, null);
    const fromRestCursor = await graphqlPage(3, null, rest.cursor);
    const gql = await graphqlPage(3, null);
    const fromGraphqlCursor = await restPage(3, null, gql.cursor);
    expect(fromRestCursor.pets).toEqual(fromGraphqlCursor.pets);
    expect(fromRestCursor.pets[0]?.id).toBeGreaterThan(rest.pets.at(-1)?.id ?? Infinity);
  });

  it('returns identical fields for the same pet', async () => {
    const rest = (await t.call({ url: '/v1/pets/3' })).json();
    const { body } = await graphql(t, '{ pet(id: "3") { id name categoryId status } }');
    expect({ ...(body.data?.pet as object), id: 3 }).toEqual(rest);
  });

  it.each([
    ['a page size over 100', '/v1/pets?limit=101', '{ pets(first: 101) { totalCount } }', 'VALIDATION_FAILED'],
    ['a page size of 0', '/v1/pets?limit=0', '{ pets(first: 0) { totalCount } }', 'VALIDATION_FAILED'],
    ['a bad cursor', '/v1/pets?cursor=bm9wZQ', '{ pets(after: "bm9wZQ") { totalCount } }', 'INVALID_CURSOR'],
    ['an absent pet', '/v1/pets/999999', '{ pet(id: "999999") { id } }', 'PET_NOT_FOUND'],
    ['a bad pet id', '/v1/pets/0', '{ pet(id: "0") { id } }', 'VALIDATION_FAILED'],
  ])('uses the same error code for %s', async (_label, url, query, code) => {
    const rest = await t.call({ url });
    expectErrorBody(rest, code);
    const { body } = await graphql(t, query);
    expect(body.errors?.[0]?.extensions).toEqual({ code, status: rest.statusCode });
  });

  it('creates the same pet from the same input, and refuses the same bad input with the same code', async () => {
    const input = { name: 'Mirror', categoryId: 77, status: 'pending' };
    const rest = (await t.call({ method: 'POST', url: '/v1/pets', payload: input })).json();
    const { body } = await graphql(t, 'mutation($i: NewPetInput!) { createPet(input: $i) { id name categoryId status } }', { i: input });
    const created = body.data?.createPet as { id: string };
    expect({ ...created, id: rest.id }).toEqual(rest);
    expect(Number(created.id)).toBe(rest.id + 1);

    const bad = { name: 'x'.repeat(101), categoryId: 1 };
    const restBad = await t.call({ method: 'POST', url: '/v1/pets', payload: bad });
    const gqlBad = await graphql(t, 'mutation($i: NewPetInput!) { createPet(input: $i) { id } }', { i: bad });
    expect(gqlBad.body.errors?.[0]?.extensions).toEqual({ code: expectErrorBody(restBad, 'VALIDATION_FAILED').code, status: 400 });
    expect(gqlBad.body.errors?.[0]?.message).toBe(restBad.json().message);
  });

  it('answers a missing key with the same code', async () => {
    expectErrorBody(await t.app.inject({ url: '/v1/pets' }), 'UNAUTHORIZED');
    const { body } = await graphql(t, '{ pets { totalCount } }', undefined, {});
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'UNAUTHORIZED', status: 401 });
  });
});
