// Apollo Server 5 standalone (its own node:http server), as its docs set it up. Not part of the product.
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { authorized, pets, typeDefs } from './peer-schema.ts';
import type { PeerContext } from './peer-schema.ts';

const server = new ApolloServer<PeerContext>({
  typeDefs,
  resolvers: { Query: { pets: (_: unknown, { first }: { first: number }, context: PeerContext) => pets(first, context) } },
});
await startStandaloneServer(server, {
  listen: { port: Number(process.env.PORT), host: '127.0.0.1' },
  context: async ({ req }) => ({ authorized: await authorized(req.headers.authorization) }),
});
