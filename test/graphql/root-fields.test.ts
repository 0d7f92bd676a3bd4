import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { rootFields, writtenRootFields } from '../../src/graphql/root-fields.ts';

describe('rootFields', () => {
  it('lists the chosen operation’s top-level fields, aliases apart, through inline fragments and spreads', () => {
    const document = parse(`
      query A { pets { totalCount } b: pets { totalCount } ... on Query { pet(id: 1) { id } } ...F }
      query Other { orders { totalCount } }
      fragment F on Query { messages { totalCount } }
    `);
    expect(rootFields(document, 'A')).toEqual(['pets', 'pets', 'pet', 'messages']);
    expect(rootFields(document, 'Other')).toEqual(['orders']);
    expect(rootFields(document, 'Missing')).toEqual([]);
    // Two operations and no name: none is chosen.
    expect(rootFields(document, undefined)).toEqual([]);
  });

  it('applies @skip and @include with the variables, and counts every written field without them', () => {
    const document = parse(
      'query($no: Boolean!, $yes: Boolean!) { a: pets @skip(if: $yes) { totalCount } b: pets @include(if: $no) { totalCount } c: pets @include(if: $yes) { totalCount } ... @skip(if: $yes) { d: pets { totalCount } } }',
    );
    expect(rootFields(document, undefined, { no: false, yes: true })).toEqual(['pets']);
    expect(rootFields(document, undefined)).toEqual(['pets', 'pets', 'pets', 'pets']);
  });

  it('remembers the written fields per document and operation name', () => {
    const document = parse('query A { pets { totalCount } } query B { orders { totalCount } }');
    const first = writtenRootFields(document, 'A');
    expect(first).toEqual(['pets']);
    expect(writtenRootFields(document, 'A')).toBe(first);
    expect(writtenRootFields(document, 'B')).toEqual(['orders']);
  });
});
