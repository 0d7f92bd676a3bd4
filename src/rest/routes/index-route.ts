import type { FastifyPluginAsync } from 'fastify';
import { GRAPHQL_ROUTE, MCP_ROUTE } from '../../http/route-config.ts';
import { DOCS_PREFIX, OPENAPI_PATH } from '../plugins/use-openapi.ts';

export interface IndexOptions {
  /** GraphiQL is served at the GraphQL route for browsers. */
  graphiql: boolean;
  /** The MCP face is mounted. */
  mcp: boolean;
}

/**
 * `GET /`: where each face of this server is, for a person or a tool that starts at the root,
 * with no key (none of it is a secret: every address here is in the docs). Only what this
 * server serves is named.
 */
export const indexRoute: FastifyPluginAsync<IndexOptions> = async (app, { graphiql, mcp }) => {
  const index = JSON.stringify({
    name: 'Petstore Gateway',
    links: {
      rest: '/v1/pets',
      docs: `${DOCS_PREFIX}/`,
      openapi: OPENAPI_PATH,
      graphql: GRAPHQL_ROUTE,
      ...(graphiql ? { graphiql: GRAPHQL_ROUTE } : {}),
      schema: `${GRAPHQL_ROUTE}/schema.graphql`,
      ...(mcp ? { mcp: MCP_ROUTE } : {}),
      health: '/healthz',
    },
  });
  // Outside the REST document: the root is no operation of the API's.
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('Cache-Control', 'public, max-age=300').send(index),
  );
};
