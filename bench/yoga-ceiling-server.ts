// What graphql-yoga itself allows on this machine: Yoga straight on node:http, with the
// floor's cached statement and auth work, and none of this project (no Fastify, no
// plugins, no services). If this cannot reach a ratio, the project on Yoga cannot either.
// Not part of the product.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { openFloorStore } from './floor-store.ts';
import { GraphQLError } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';

const store = openFloorStore(process.env.DATABASE_URL ?? '');

/** Synchronous on SQLite, as the floor is: a promise only where the driver has one. */
function then<T, U>(value: T | Promise<T>, next: (value: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

function authorized(req: IncomingMessage): boolean | Promise<boolean> {
  const match = /^Bearer (psk_[A-Za-z0-9]{40})$/.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return false;
  return then(store.findKey(createHash('sha256').update(match[1]).digest('hex')), (row) => !!row && row.revoked_at === null);
}

const typeDefs = /* GraphQL */ `
  type Pet {
    id: ID!
    name: String!
    categoryId: Int!
    status: String!
  }
  type PetConnection {
    nodes: [Pet!]!
  }
  type Query {
    pets(first: Int = 20): PetConnection!
  }
`;
const yoga = createYoga<{ req: IncomingMessage }, { authorized: boolean }>({
  schema: createSchema<{ req: IncomingMessage; authorized: boolean }>({
    typeDefs,
    resolvers: {
      Query: {
        pets: (_: unknown, { first }: { first: number }, { authorized: ok }: { authorized: boolean }) => {
          if (!ok) throw new GraphQLError('A valid API key is required.');
          return then(store.list(0, first), (rows) => ({
            nodes: rows.map((r) => ({ id: r.id, name: r.name, categoryId: r.category_id, status: r.status })),
          }));
        },
      },
    },
  }),
  context: ({ req }) => then(authorized(req), (ok) => ({ authorized: ok })),
  logging: false,
  graphiql: false,
  landingPage: false,
});

createServer(yoga).listen(Number(process.env.PORT), '127.0.0.1');
