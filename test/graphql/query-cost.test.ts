import { getDirectiveValues, getOperationAST, isObjectType, parse } from 'graphql';
import type { GraphQLDirective } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { describe, expect, it as unit } from 'vitest';
import { QUERY_COST, queryCost } from '../../src/graphql/query-cost.ts';
import { loadTypeDefs } from '../../src/graphql/type-defs.ts';
import { petstoreSchema } from '../../src/graphql/petstore-schema.ts';
import { readsOf } from '../../src/graphql/resolvers/reading.ts';
import { PAGE_SIZE } from '../../src/services/pagination/keyset-page.ts';
import { it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';

const schema = createSchema({ typeDefs: loadTypeDefs() });
const costOf = (text: string, variables?: Record<string, unknown>) => {
  const document = parse(text);
  const operation = getOperationAST(document);
  if (!operation) throw new Error('no operation');
  return queryCost(schema, document, operation, variables).cost;
};

describe('queryCost (what an operation costs to run, by the cost directives in schema/)', () => {
  unit('charges a query of its own 10, an object 1, a scalar nothing, and what is under a page once per item asked for', () => {
    // pets: 10 and its connection 1; each of the 5 nodes 1 (a Pet); id and name nothing.
    expect(costOf('{ pets(first: 5) { nodes { id name } } }')).toBe(11 + 5);
    expect(costOf('{ pets { nodes { id } } }')).toBe(11 + 20);
    expect(costOf('{ pets(last: 100) { edges { cursor node { id } } } }')).toBe(11 + 100 * (1 + 1));
    expect(costOf('query($n: Int) { pets(first: $n) { nodes { id } } }', { n: 50 })).toBe(11 + 50);
    // A count and both flags are queries of their own (10 each); pageInfo is an object (1).
    expect(costOf('{ pets { totalCount pageInfo { hasNextPage hasPreviousPage endCursor } } }')).toBe(11 + 10 + 1 + 10 + 10);
    // Introspection and __typename cost nothing; a list of keys is assumed 10 long; a mutation is 10 before its fields.
    expect(costOf('{ __typename __schema { types { name } } }')).toBe(0);
    expect(costOf('{ myKeys { id } }')).toBe(10 * (1 + 1));
    expect(costOf('mutation { createPet(input: { name: "Rex", categoryId: 1 }) { id } }')).toBe(10 + 10 + 1);
  });

  unit('charges relations read for a page at once by the row, through fragments too', () => {
    const orders = '{ orders(first: 10) { nodes { id pet { name } } } }';
    expect(costOf(orders)).toBe(11 + 10 * (1 + 2));
    expect(costOf('fragment P on Pet { name } { orders(first: 10) { nodes { id pet { ...P } } } }')).toBe(costOf(orders));
    expect(costOf('fragment N on OrderConnection { nodes { id pet { name } } } { orders(first: 10) { ...N } }')).toBe(costOf(orders));
    expect(costOf('{ pets(first: 2) { nodes { orders { id } } } }')).toBe(11 + 2 * (1 + 2));
  });

  unit('costs the same whatever the tables hold: fifteen counts are fifteen one-row reads', () => {
    const aliases = Array.from({ length: 15 }, (_, i) => `c${i}: pets(first: 1) { totalCount }`).join(' ');
    expect(costOf(`{ ${aliases} }`)).toBe(15 * 21);
  });
});

describe('the cost directives, held to what the fields do', () => {
  const executable = petstoreSchema();
  const directive = (name: string) => executable.getDirective(name) as GraphQLDirective;

  unit('every field that reaches the database carries @cost: each root field, and each that declares what it reads', () => {
    const roots = new Set([executable.getQueryType(), executable.getMutationType(), executable.getSubscriptionType()]);
    const free: string[] = [];
    for (const type of Object.values(executable.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        if (field.name.startsWith('_')) continue;
        const reads = readsOf(field);
        const reaches = roots.has(type) || reads === undefined || reads === 'uncacheable' || reads.length > 0;
        if (reaches && !(field.astNode && getDirectiveValues(directive('cost'), field.astNode))) free.push(`${type.name}.${field.name}`);
      }
    }
    expect(
      free,
      'each reaches the database and would be free to ask for as often as the limit allows: give it @cost in schema/ (weight 1 if a loader reads it for a whole page, 10 if not)',
    ).toEqual([]);
  });

  unit('a connection asked for without first or last is priced at the page the service then gives', () => {
    const sizes: Record<string, unknown> = {};
    for (const type of Object.values(executable.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        const listSize = field.astNode ? getDirectiveValues(directive('listSize'), field.astNode) : undefined;
        if ((listSize?.slicingArguments as string[] | undefined)?.includes('first'))
          sizes[`${type.name}.${field.name}`] = listSize?.assumedSize;
      }
    }
    expect(Object.keys(sizes).length, 'no connection with @listSize(slicingArguments: ["first", …]) in schema/').toBeGreaterThan(0);
    const wrong = Object.entries(sizes)
      .filter(([, size]) => size !== PAGE_SIZE.default)
      .map(
        ([coordinate, size]) =>
          `${coordinate} is priced at @listSize(assumedSize: ${String(size)}) and the service's page is ${PAGE_SIZE.default} (PAGE_SIZE.default): make them the same`,
      );
    expect(wrong).toEqual([]);
  });
});

describe('the cost limit over HTTP', () => {
  it('refuses an operation over the limit before anything runs (400 QUERY_TOO_COMPLEX, naming the cost), and runs one under it', async ({
    t,
  }) => {
    const heavy = `{ ${Array.from({ length: 10 }, (_, i) => `p${i}: pets(first: 100) { nodes { id name status orders { id pet { name } } } }`).join(' ')} }`;
    expect(costOf(heavy)).toBeGreaterThan(QUERY_COST.max);
    const refused = await graphql(t, heavy);
    expect(refused.res.statusCode).toBe(400);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', status: 400 });
    expect(refused.body.errors?.[0]?.message).toMatch(
      new RegExp(`^The operation costs ${costOf(heavy)}, over the limit of ${QUERY_COST.max}`),
    );
    // The same text again (its cost remembered, as it has no variables): refused again.
    expect((await graphql(t, heavy)).res.statusCode).toBe(400);

    const light =
      '{ pets(first: 100) { totalCount nodes { id name status orders { id pet { name } } } pageInfo { hasNextPage endCursor } } }';
    expect(costOf(light)).toBeLessThanOrEqual(QUERY_COST.max);
    expect((await graphql(t, light)).res.statusCode).toBe(200);
  });

  it('counts page sizes given as variables', async ({ t }) => {
    const page = (alias: string) =>
      `${alias}: pets(first: $n) { nodes { id name status categoryId orders { id status pet { name status } } } }`;
    const query = `query($n: Int) { ${Array.from({ length: 10 }, (_, i) => page(`p${i}`)).join(' ')} }`;
    expect(costOf(query, { n: 100 })).toBeGreaterThan(QUERY_COST.max);
    expect((await graphql(t, query, { n: 10 })).res.statusCode).toBe(200);
    const refused = await graphql(t, query, { n: 100 });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });
});
