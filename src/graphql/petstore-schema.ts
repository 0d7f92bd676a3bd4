import type { GraphQLSchema } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { withAcceptedValues } from './accepted-values.ts';
import { withMutationEffects } from './mutation-effects.ts';
import { withIncrementalDelivery } from './execution/incremental-delivery.ts';
import { subgraphSchema } from './federation/subgraph-schema.ts';
import { resolvers } from './resolvers/index.ts';
import { withScopes } from './scopes.ts';
import { loadTypeDefs } from './type-defs.ts';

export interface SchemaOptions {
  /** As an Apollo Federation v2 subgraph (GRAPHQL_FEDERATION): entities, `_service` and `_entities`. */
  federation?: boolean;
}

/** The executable schema: the SDL in schema/ with the resolvers codegen types, @defer and @stream, each field's scope, each argument's accepted values and each mutation's effect. */
export function petstoreSchema({ federation = false }: SchemaOptions = {}): GraphQLSchema {
  const typeDefs = loadTypeDefs();
  const schema = federation
    ? subgraphSchema(typeDefs, resolvers as Record<string, unknown>)
    : createSchema({ typeDefs, resolvers: resolvers as never });
  return withMutationEffects(withAcceptedValues(withScopes(withIncrementalDelivery(schema))));
}
