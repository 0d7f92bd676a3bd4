import { execute, isObjectType, parse } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { operationScopes, withScopes } from '../../src/graphql/scopes.ts';
import type { Principal } from '../../src/services/principal.ts';
import { reading } from '../../src/graphql/resolvers/reading.ts';
import { petstoreSchema } from '../../src/graphql/petstore-schema.ts';
import { readsOf } from '../../src/graphql/resolvers/reading.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import type { Scope } from '../../src/services/access-tokens/scopes.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { it as unit } from 'vitest';

// What a credential's scopes let it reach through GraphQL: a root field needs its own scope
// (read for queries, write for mutations, keys for the keys' fields), and a field that reads
// anything beyond its parent's record needs petstore:read wherever it is reached, a mutation's
// answer included. A write returns its own result, as REST's 201 does: nothing more.

const keyWith = async (t: TestApp, account: string, scopes: Scope[]) => ({
  authorization: `Bearer ${(await createApiKey(t.db, account, { scopes })).key}`,
});

it.beforeAll(async ({ t }) => {
  await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Seed', categoryId: 1 } });
});

describe('scopes on GraphQL fields', () => {
  unit('every field that reads beyond its parent’s record needs a scope, wherever it is reached', () => {
    for (const federation of [false, true]) {
      const schema = petstoreSchema({ federation });
      const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((type) => type?.name));
      const unguarded: string[] = [];
      for (const type of Object.values(schema.getTypeMap())) {
        if (!isObjectType(type) || type.name.startsWith('__')) continue;
        for (const field of Object.values(type.getFields())) {
          if (field.name.startsWith('__')) continue;
          const reads = readsOf(field);
          const reaches = roots.has(type.name) || reads === undefined || reads === 'uncacheable' || reads.length > 0;
          if (reaches && (field.extensions as { scope?: Scope }).scope === undefined) unguarded.push(`${type.name}.${field.name}`);
        }
      }
      expect(unguarded).toEqual([]);
    }
  });

  unit(
    'answers a write its own record whole, and guards a relation whose resolver forgot to say what it reads as one that reads',
    async () => {
      const schema = withScopes(
        createSchema({
          typeDefs:
            'type Pet { name: String! tags: [String!]! owner: Owner } type Owner { name: String! } type Query { x: Int } type Mutation { add: Pet! }',
          resolvers: {
            Mutation: { add: () => ({ name: 'W' }) },
            Pet: { tags: reading(['pets'], () => ['its own']), owner: () => ({ name: 'someone else' }) },
          },
        }),
      );
      const principal = { scopes: new Set(['petstore:write']) } as unknown as Principal;
      const { data, errors } = await execute({
        schema,
        document: parse('mutation { add { name tags owner { name } } }'),
        contextValue: { principal },
      });
      expect(data).toEqual({ add: { name: 'W', tags: ['its own'], owner: null } });
      // What the pipeline checks before anything runs (a write selecting a read is refused whole) agrees.
      expect([...operationScopes(schema, parse('mutation { add { name tags } }'), undefined)]).toEqual(['petstore:write']);
      expect([
        ...operationScopes(schema, parse('mutation { ...W } fragment W on Mutation { add { tags owner { name } } }'), undefined),
      ]).toEqual(['petstore:write', 'petstore:read']);
      expect(errors?.map((error) => [error.path?.join('.'), (error.originalError as { code?: string } | undefined)?.code])).toEqual([
        ['add.owner', 'INSUFFICIENT_SCOPE'],
      ]);
    },
  );

  it('lets a write-only credential write and read back what it wrote; a write that selects a read is refused whole', async ({ t }) => {
    const writer = await keyWith(t, 'tester', ['petstore:write']);
    const own = await graphql(t, 'mutation { createPet(input: { name: "W", categoryId: 1 }) { id name status } }', undefined, writer);
    expect(own.body.errors).toBeUndefined();
    expect(own.body.data).toEqual({ createPet: { id: expect.any(String), name: 'W', status: 'available' } });
    const pets = await t.count('pets');
    for (const mutation of [
      'mutation { createPet(input: { name: "X", categoryId: 1 }) { id orders { pet { name } } } }',
      'mutation { placeOrder(input: { petId: "1" }) { id pet { name } } }',
    ]) {
      const refused = await graphql(t, mutation, undefined, writer);
      expect(refused.res.statusCode).toBe(403);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors?.[0]?.extensions).toEqual({ code: 'INSUFFICIENT_SCOPE', status: 403 });
    }
    expect(await t.count('pets')).toBe(pets);
    expect(await t.count('orders')).toBe(0);
  });

  it('refuses a query’s field the credential may not read as that field’s error, the rest answered', async ({ t }) => {
    const keysOnly = await keyWith(t, 'tester', ['petstore:keys']);
    const { body } = await graphql(t, '{ myKeys { id } pet(id: "1") { name } }', undefined, keysOnly);
    expect(body.data).toEqual({ myKeys: expect.any(Array), pet: null });
    expect(body.errors?.map((error) => [error.path?.join('.'), error.extensions?.code])).toEqual([['pet', 'INSUFFICIENT_SCOPE']]);
  });

  it('never replays a write’s answer to a credential that may not send the write: 403 before anything', async ({ t }) => {
    const writer = await keyWith(t, 'tester', ['petstore:write', 'petstore:read']);
    const reader = await keyWith(t, 'tester', ['petstore:read']);
    const mutation = 'mutation { createPet(input: { name: "Replayed", categoryId: 1 }) { id name } }';
    const first = await graphql(t, mutation, undefined, { ...writer, 'idempotency-key': 'scoped-replay' });
    expect(first.body.errors).toBeUndefined();
    const pets = await t.count('pets');
    const replay = await graphql(t, mutation, undefined, { ...reader, 'idempotency-key': 'scoped-replay' });
    expect(replay.res.statusCode).toBe(403);
    expect(replay.res.headers['idempotent-replayed']).toBeUndefined();
    expect(replay.body.data).toBeUndefined();
    expect(replay.body.errors?.[0]?.extensions).toEqual({ code: 'INSUFFICIENT_SCOPE', status: 403 });
    expect(replay.body.errors?.[0]?.message).toBe(
      "This operation needs the scope 'petstore:write', which the credential sent does not have.",
    );
    // A first run refused the same way stores nothing, and frees the key for the right credential.
    const fresh = await graphql(t, mutation.replace('Replayed', 'Fresh'), undefined, { ...reader, 'idempotency-key': 'scoped-fresh' });
    expect(fresh.res.statusCode).toBe(403);
    expect(await t.count('pets')).toBe(pets);
    // A write whose answer selects a read needs both: refused whole with a key, as it could never be kept.
    const writeOnly = await keyWith(t, 'tester', ['petstore:write']);
    const reading = 'mutation { createPet(input: { name: "Deep", categoryId: 1 }) { id orders { id } } }';
    const deep = await graphql(t, reading, undefined, { ...writeOnly, 'idempotency-key': 'scoped-deep' });
    expect(deep.res.statusCode).toBe(403);
    expect(deep.body.errors?.[0]?.message).toBe("This operation needs the scope 'petstore:read', which the credential sent does not have.");
    expect(await t.count('pets')).toBe(pets);
  });
});
