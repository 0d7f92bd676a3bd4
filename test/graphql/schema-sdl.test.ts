import { buildSchema } from 'graphql';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { expectErrorBody } from '../helpers/test-app.ts';

// The schema as SDL at a stable address, for code generators and gateways, also where
// introspection is off (production).

describe('GET /graphql/schema.graphql', () => {
  it('is the schema the server runs, with its directives as applied, revalidated with its ETag', async ({ t }) => {
    const res = await t.app.inject({ url: '/graphql/schema.graphql' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/graphql; charset=utf-8');
    const schema = buildSchema(res.body);
    expect(Object.keys(schema.getQueryType()?.getFields() ?? {})).toEqual(expect.arrayContaining(['pets', 'pet', 'orders', 'myKeys']));
    expect(Object.keys(schema.getMutationType()?.getFields() ?? {})).toEqual(expect.arrayContaining(['createPet', 'sendMessage']));
    expect(schema.getDirective('defer')).toBeDefined();
    expect(res.body).toMatch(
      /pets\(first: Int, after: String, last: Int, before: String, status: PetStatus\): PetConnection! @cost\(weight: 10\) @listSize\(/,
    );
    const again = await t.app.inject({ url: '/graphql/schema.graphql', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('needs a valid credential where introspection is off, as introspection would', async ({ makeApp }) => {
    const t = await makeApp({ GRAPHQL_INTROSPECTION: 'false' });
    expectErrorBody(await t.app.inject({ url: '/graphql/schema.graphql' }), 'UNAUTHORIZED');
    const keyed = await t.call({ url: '/graphql/schema.graphql' });
    expect(keyed.statusCode).toBe(200);
    expect(keyed.headers['cache-control']).toBe('private, no-cache');
    expect(buildSchema(keyed.body).getType('Pet')).toBeDefined();
  });
});
