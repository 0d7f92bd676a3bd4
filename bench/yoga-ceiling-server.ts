// What graphql-yoga itself allows on this machine: Yoga straight on node:http, with the
// floor's cached statement and auth work, and none of this project (no Fastify, no
// plugins, no services). If this cannot reach a ratio, the project on Yoga cannot either.
// Not part of the product.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import SQLite from 'better-sqlite3';
import { GraphQLError } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';

const db = new SQLite(process.env.DATABASE_URL ?? '');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');

interface Row {
  id: number;
  name: string;
  category_id: number;
  status: string;
}
const findKey = db.prepare<[string], { revoked_at: string | null }>('select revoked_at from api_keys where key_hash = ?');
const list = db.prepare<[number, number], Row>('select id, name, category_id, status from pets where id > ? order by id limit ?');

function authorized(req: IncomingMessage): boolean {
  const match = /^Bearer (psk_[A-Za-z0-9]{40})$/.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return false;
  const row = findKey.get(createHash('sha256').update(match[1]).digest('hex'));
  return !!row && row.revoked_at === null;
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
          return { nodes: list.all(0, first).map((r) => ({ id: r.id, name: r.name, categoryId: r.category_id, status: r.status })) };
        },
      },
    },
  }),
  context: ({ req }) => ({ authorized: authorized(req) }),
  logging: false,
  graphiql: false,
  landingPage: false,
});

createServer(yoga).listen(Number(process.env.PORT), '127.0.0.1');
