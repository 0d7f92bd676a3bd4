import type { GraphQLSchema } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { resolvers } from './resolvers/index.ts';
import { loadTypeDefs } from './type-defs.ts';

/** The executable schema: the SDL in schema/ with the resolvers codegen types. */
export function petstoreSchema(): GraphQLSchema {
  return createSchema({ typeDefs: loadTypeDefs(), resolvers: resolvers as never });
}
