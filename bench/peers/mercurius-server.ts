// Mercurius 16 on Fastify 5, as its docs set it up; MERCURIUS_JIT=1 compiles each query with
// graphql-jit after its first run (Mercurius's `jit: 1`). MERCURIUS_SHIPPED=1 adds what its
// plugins' own docs ship a production API with, the fair anchor beside the bare one: Fastify's
// request log (its two lines a request), @fastify/helmet's headers, @fastify/rate-limit counting
// per credential (a budget the bench never spends), and Mercurius's own depth limit (8, as this
// project's). MERCURIUS_EDGE=1 is issue 55's other GraphQL anchor: one access line a request
// (Fastify's own request log off, an onResponse hook writing the line through the request's
// logger) and @fastify/rate-limit, nothing else. Not part of the product.
import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import mercurius from 'mercurius';
import { pino } from 'pino';
import { authorized, pets, then, typeDefs } from './peer-schema.ts';
import type { PeerContext } from './peer-schema.ts';

declare module 'mercurius' {
  // Mercurius's way to type what `context` adds.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface MercuriusContext extends PeerContext {}
}

const shipped = process.env.MERCURIUS_SHIPPED === '1';
const edge = process.env.MERCURIUS_EDGE === '1';
// The access line batched as pino's docs show for asynchronous logging (sonic-boom, 8 KiB), as this project batches its own.
const app = Fastify({
  logger: edge ? { stream: pino.destination({ dest: 1, sync: false, minLength: 8192 }) } : shipped,
  disableRequestLogging: edge,
});
if (edge) {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ method: request.method, url: request.url, status: reply.statusCode, ms: reply.elapsedTime }, 'request');
    done();
  });
}
if (shipped) await app.register(helmet);
if (shipped || edge) {
  await app.register(rateLimit, {
    max: 1_000_000,
    timeWindow: '1 minute',
    keyGenerator: (request) => request.headers.authorization ?? request.ip,
  });
}
await app.register(mercurius, {
  schema: typeDefs,
  resolvers: { Query: { pets: (_: unknown, { first }: { first: number }, context: PeerContext) => pets(first, context) } },
  context: (request) => then(authorized(request.headers.authorization), (ok) => ({ authorized: ok })),
  jit: process.env.MERCURIUS_JIT === '1' ? 1 : 0,
  graphiql: false,
  ...(shipped ? { queryDepth: 8 } : {}),
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
