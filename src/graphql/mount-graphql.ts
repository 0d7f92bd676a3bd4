import type { FastifyInstance } from 'fastify';
import type { IdempotencyHooks } from '../rest/plugins/idempotency-hooks.ts';
import { errorHandler, sendGraphQLErrors } from '../rest/plugins/use-error-body.ts';
import type { GraphQLOptions } from './create-yoga.ts';
import { createGraphQL } from './create-yoga.ts';

/** Serves Yoga at /graphql (GET and POST) inside the Fastify app, beside REST. */
export async function mountGraphQL(
  app: FastifyInstance,
  options: Omit<GraphQLOptions, 'log'>,
  hooks: { idempotent: IdempotencyHooks },
): Promise<void> {
  const yoga = await createGraphQL({ ...options, log: app.log });
  app.route({
    // Errors raised before Yoga runs (rate limit, idempotency, a bad body) still answer as GraphQL.
    errorHandler: errorHandler(sendGraphQLErrors),
    preHandler: hooks.idempotent.preHandler,
    onSend: hooks.idempotent.onSend,
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST'],
    schema: { hide: false, summary: 'GraphQL endpoint (GraphiQL in a browser)', tags: ['graphql'], servers: [{ url: '/' }] },
    handler: async (req, reply) => {
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      reply.status(response.status);
      // Buffered, not streamed: answers are small JSON, and onSend hooks (idempotency) need the text.
      return reply.send(await response.text());
    },
  });
}
