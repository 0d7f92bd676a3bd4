import { isObjectType, parse, TypeInfo, visit, visitWithTypeInfo } from 'graphql';
import { describe, expect, it as unit } from 'vitest';
import { cacheableReads } from '../../src/graphql/cacheable-query.ts';
import { petstoreSchema } from '../../src/graphql/petstore-schema.ts';
import { readsOf } from '../../src/graphql/resolvers/reading.ts';
import { it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { spyOnSelects } from '../helpers/select-spy.ts';

describe('what each field reads, for the response cache', () => {
  unit.for([
    ['the schema', false],
    ['the federation subgraph', true],
  ] as const)('is declared beside every resolver a query can reach (resolvers/reading.ts): %s', ([, federation]) => {
    const schema = petstoreSchema({ federation });
    const undeclared: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      // Mutations and subscriptions are never kept; introspection is graphql-js's own.
      if (!isObjectType(type) || type.name.startsWith('__') || type === schema.getMutationType() || type === schema.getSubscriptionType())
        continue;
      for (const field of Object.values(type.getFields())) if (readsOf(field) === undefined) undeclared.push(`${type.name}.${field.name}`);
    }
    // A query selecting one of these is never kept: wrap its resolver as reading(['pets'], …), reading([], …) or reading('uncacheable', …).
    expect(undeclared).toEqual([]);
  });

  unit('names the tables a resolver reads, the caller-specific ones as the caller sees them', () => {
    const schema = petstoreSchema();
    const at = (coordinate: string) => {
      const [type = '', field = ''] = coordinate.split('.');
      const found = schema.getType(type);
      if (!isObjectType(found)) throw new Error(`no type ${type}`);
      return readsOf(found.getFields()[field] as Parameters<typeof readsOf>[0]);
    };
    expect(at('Query.pets')).toEqual(['pets']);
    expect(at('Pet.orders')).toEqual(['orders']);
    expect(at('Order.pet')).toEqual(['pets']);
    expect(at('Query.message')).toEqual(['messages']);
    expect(at('Query.myKeys')).toBe('uncacheable');
    // A property of its parent's record reads nothing of its own.
    expect(at('Pet.name')).toEqual([]);
  });
});

/** What each physical table a query may read stands for in the versions: row_counts holds the pets' counts and the caller's orders'. */
const VERSIONED_BY_TABLE: Record<string, readonly string[]> = {
  pets: ['pets'],
  orders: ['orders'],
  messages: ['messages'],
  row_counts: ['pets', 'orders'],
};
/** The credential's own lookups (the key, its account, a token's identity): the request's, not the answer's. */
const CREDENTIAL_TABLES = new Set(['api_keys', 'accounts', 'account_identities']);

/** Queries that between them select every field a cached answer can hold that runs a resolver of its own. */
const QUERIES = [
  '{ pets(first: 3) { totalCount edges { cursor node { id name orders { id status } } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }',
  '{ pet(id: "1") { id name orders { id } } }',
  '{ orders(first: 3) { totalCount edges { cursor node { id pet { id name } } } nodes { id pet { name } } pageInfo { hasNextPage hasPreviousPage } } }',
  '{ order(id: "1") { id pet { id name } } }',
  'query($id: ID!) { message(id: $id) { id status } }',
];

const tables: string[] = [];
it.override('appOptions', { wrapDb: spyOnSelects((table) => tables.push(table)) });

describe('what each field really reads, spied on the database', () => {
  it('is among the tables its query declares: a field reading a table it does not name would leave cached answers stale', async ({ t }) => {
    const pet = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Read', categoryId: 1 } });
    await t.call({ method: 'POST', url: '/v1/store/orders', payload: { petId: pet.json().id } });
    const message = (await t.call({ method: 'POST', url: '/messages', payload: { message: 'read' } })).json().id as string;
    const schema = petstoreSchema();
    // Every resolver-backed field a kept answer can hold is selected by some query above (add one for a new field).
    const selected = new Set<string>();
    for (const text of QUERIES) {
      const typeInfo = new TypeInfo(schema);
      visit(
        parse(text),
        visitWithTypeInfo(typeInfo, {
          Field() {
            const parent = typeInfo.getParentType();
            if (parent) selected.add(`${parent.name}.${typeInfo.getFieldDef()?.name ?? ''}`);
          },
        }),
      );
    }
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__') || type === schema.getMutationType() || type === schema.getSubscriptionType())
        continue;
      for (const field of Object.values(type.getFields())) {
        const reads = readsOf(field);
        if (field.resolve && reads !== 'uncacheable' && !selected.has(`${type.name}.${field.name}`) && type.name !== 'CancelOrderPayload') {
          missing.push(`${type.name}.${field.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
    for (const text of QUERIES) {
      const declared = cacheableReads(schema, parse(text), undefined) ?? [];
      tables.length = 0;
      const { body } = await graphql(t, text, { id: message });
      expect(body.errors, text).toBeUndefined();
      const undeclared = tables.filter(
        (table) =>
          !CREDENTIAL_TABLES.has(table) &&
          !(VERSIONED_BY_TABLE[table] ?? []).some((versioned) => (declared as string[]).includes(versioned)),
      );
      expect(undeclared, `${text} read ${tables.join(', ')}; it declares ${declared.join(', ')}`).toEqual([]);
    }
  });
});
