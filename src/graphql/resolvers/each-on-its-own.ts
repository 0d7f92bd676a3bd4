import type { GraphQLResolveInfo } from 'graphql';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { onItsOwn } from '../../services/idempotency/index.ts';

type Resolver<Context> = (parent: unknown, args: never, context: Context, info: GraphQLResolveInfo) => unknown;

/**
 * Mutation resolvers that each succeed or fail whole when an operation with an Idempotency-Key
 * runs them in one transaction: a field that fails undoes its own writes, and the fields after
 * it still run and answer for themselves (on PostgreSQL a failed statement would otherwise
 * poison the rest). The operation then commits only if none failed (idempotency-hooks.ts).
 */
export function eachOnItsOwn<Context extends { db: Kysely<Database> }, Resolvers extends Record<string, unknown>>(
  resolvers: Resolvers,
): Resolvers {
  const wrapped: Record<string, unknown> = {};
  for (const [field, resolver] of Object.entries(resolvers)) {
    // A resolver may come as its function or as an object holding it with what it declares (resolvers/needing.ts).
    const config = (typeof resolver === 'function' ? { resolve: resolver } : resolver) as { resolve: Resolver<Context> };
    const { resolve } = config;
    wrapped[field] = {
      ...config,
      resolve: (parent: unknown, args: never, context: Context, info: GraphQLResolveInfo) =>
        onItsOwn(context.db, (db) => Promise.resolve(resolve(parent, args, { ...context, db }, info))),
    };
  }
  return wrapped as Resolvers;
}
