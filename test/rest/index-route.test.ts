import { describe, expect, it } from '../helpers/fixtures.ts';

describe('GET /', () => {
  it('points a newcomer at each face this server serves, with no key, and each link answers', async ({ t }) => {
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const index = res.json() as { name: string; links: Record<string, string> };
    expect(index).toEqual({
      name: 'Petstore Gateway',
      links: {
        rest: '/v1/pets',
        docs: '/v1/docs/',
        openapi: '/v1/openapi.json',
        graphql: '/graphql',
        graphiql: '/graphql',
        schema: '/graphql/schema.graphql',
        mcp: '/mcp',
        health: '/healthz',
      },
    });
    // Each is served here: the keyed ones refuse without a key, none is a 404.
    for (const link of Object.values(index.links)) {
      const followed = await t.app.inject({ url: link, headers: { accept: 'text/html' } });
      expect(followed.statusCode, link).not.toBe(404);
    }
  });

  it('names only what is on: no GraphiQL in production, no MCP with MCP=false', async ({ makeApp }) => {
    const t = await makeApp({ NODE_ENV: 'production', MCP: 'false' });
    const { links } = (await t.app.inject({ url: '/' })).json() as { links: Record<string, string> };
    expect(Object.keys(links)).toEqual(['rest', 'docs', 'openapi', 'graphql', 'schema', 'health']);
  });
});
