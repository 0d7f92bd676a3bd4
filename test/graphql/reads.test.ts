import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { petstoreSchema } from '../../src/graphql/petstore-schema.ts';
import { readsOf } from '../../src/graphql/resolvers/reading.ts';

describe('what each field reads, for the response cache', () => {
  it.for([
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

  it('names the tables a resolver reads, the caller-specific ones as the caller sees them', () => {
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
