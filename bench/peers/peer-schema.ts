// What every peer serves: the project's `pets(first: 20) { nodes { id name categoryId status } }`
// over the floor's statements, behind the floor's key check (SHA-256 of the bearer token, an
// indexed lookup). Each peer adds only its own server around these. Not part of the product.
import { createHash } from 'node:crypto';
import { openFloorStore } from '../floor-store.ts';
import type { Row } from '../floor-store.ts';

const store = openFloorStore(process.env.DATABASE_URL ?? '');

export const typeDefs = /* GraphQL */ `
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

/** Synchronous on SQLite, as the floor is: a promise only where the driver has one. */
export function then<T, U>(value: T | Promise<T>, next: (value: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** The floor's key check on an Authorization header. */
export function authorized(header: string | undefined): boolean | Promise<boolean> {
  const match = /^Bearer (psk_[A-Za-z0-9]{40})$/.exec(header ?? '');
  if (!match?.[1]) return false;
  return then(store.findKey(createHash('sha256').update(match[1]).digest('hex')), (row) => !!row && row.revoked_at === null);
}

export interface PeerContext {
  authorized: boolean;
}

const toPet = (r: Row) => ({ id: r.id, name: r.name, categoryId: r.category_id, status: r.status });

/** Query.pets: refused without a valid key (as an error in the answer; the bench sends one). */
export function pets(first: number, context: PeerContext) {
  if (!context.authorized) throw new Error('A valid API key is required.');
  return then(store.list(0, first), (rows) => ({ nodes: rows.map(toPet) }));
}
