// graphql-yoga 5 straight on node:http (the product's own GraphQL engine, without Fastify,
// plugins or services): the most Yoga allows here. Not part of the product.
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { createSchema, createYoga } from 'graphql-yoga';
import { authorized, pets, then, typeDefs } from './peer-schema.ts';
import type { PeerContext } from './peer-schema.ts';

const yoga = createYoga<{ req: IncomingMessage }, PeerContext>({
  schema: createSchema<{ req: IncomingMessage } & PeerContext>({
    typeDefs,
    resolvers: { Query: { pets: (_: unknown, { first }: { first: number }, context: PeerContext) => pets(first, context) } },
  }),
  context: ({ req }) => then(authorized(req.headers.authorization), (ok) => ({ authorized: ok })),
  logging: false,
  graphiql: false,
  landingPage: false,
});

createServer(yoga).listen(Number(process.env.PORT), '127.0.0.1');
