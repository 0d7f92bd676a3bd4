// Mercurius 16 on Fastify 5, as its docs set it up; MERCURIUS_JIT=1 compiles each query with
// graphql-jit after its first run (Mercurius's `jit: 1`). Not part of the product.
import Fastify from 'fastify';
import mercurius from 'mercurius';
import { authorized, pets, then, typeDefs } from './peer-schema.ts';
import type { PeerContext } from './peer-schema.ts';

declare module 'mercurius' {
  // Mercurius's way to type what `context` adds.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface MercuriusContext extends PeerContext {}
}

const app = Fastify({ logger: false });
await app.register(mercurius, {
  schema: typeDefs,
  resolvers: { Query: { pets: (_: unknown, { first }: { first: number }, context: PeerContext) => pets(first, context) } },
  context: (request) => then(authorized(request.headers.authorization), (ok) => ({ authorized: ok })),
  jit: process.env.MERCURIUS_JIT === '1' ? 1 : 0,
  graphiql: false,
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
