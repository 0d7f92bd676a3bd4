import type { GraphQLSchema } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { withIncrementalDelivery } from './execution/incremental-delivery.ts';
import { subgraphSchema } from './federation/subgraph-schema.ts';
import { resolvers } from './resolvers/index.ts';
import { withScopes } from './scopes.ts';
import { loadTypeDefs } from './type-defs.ts';

export interface SchemaOptions {
  /** As an Apollo Federation v2 subgraph (GRAPHQL_FEDERATION): entities, `_service` and `_entities`. */
  federation?: boolean;
}

/** The executable schema: the SDL in schema/ with the resolvers codegen types, and @defer and @stream. */
export function petstoreSchema({ federation = false }: SchemaOptions = {}): GraphQLSchema {
  const typeDefs = loadTypeDefs();
  const schema = federation
    ? subgraphSchema(typeDefs, resolvers as Record<string, unknown>)
    : createSchema({ typeDefs, resolvers: resolvers as never });
  return withScopes(withIncrementalDelivery(schema));
}
