import { defaultFieldResolver } from 'graphql';
import type { GraphQLFieldConfig, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { AppError } from '../errors/index.ts';
import type { Scope } from '../services/access-tokens/scopes.ts';
import { permits } from '../services/principal.ts';
import type { GraphQLContext } from './context.ts';

type Field = ReturnType<GraphQLObjectType['getFields']>[string] & Pick<GraphQLFieldConfig<unknown, GraphQLContext>, 'subscribe'>;

/** Refuses a caller whose credential lacks `scope`: a field error (INSUFFICIENT_SCOPE, 403) where the field is. */
function check(context: GraphQLContext, scope: Scope): void {
  // No principal: only introspection runs without one (checks/require-key.ts).
  if (context.principal && !permits(context.principal, scope)) throw AppError.of('INSUFFICIENT_SCOPE', 'missing', { scope });
}

/**
 * Each root field asks for the scope it needs when it runs: its own (resolvers/needing.ts),
 * else reading for queries and subscriptions and writing for mutations. A field refused is that
 * field's error, the rest of the operation answered, as REST refuses one route (403). Keys and
 * tokens without scopes (null) may do everything. Done once to the schema, so both executors
 * (graphql-jit, the stock one) and every transport run the same check.
 */
export function withScopes(schema: GraphQLSchema): GraphQLSchema {
  const roots: [GraphQLObjectType | null | undefined, Scope][] = [
    [schema.getQueryType(), 'petstore:read'],
    [schema.getMutationType(), 'petstore:write'],
    [schema.getSubscriptionType(), 'petstore:read'],
  ];
  for (const [type, byDefault] of roots) {
    if (!type) continue;
    for (const field of Object.values(type.getFields()) as Field[]) {
      if (field.name.startsWith('__')) continue;
      const scope = (field.extensions as { scope?: Scope }).scope ?? byDefault;
      const { resolve = defaultFieldResolver, subscribe } = field;
      field.resolve = (source, args, context: GraphQLContext, info) => {
        check(context, scope);
        return resolve(source, args, context, info);
      };
      if (subscribe) {
        field.subscribe = (source, args, context: GraphQLContext, info) => {
          check(context, scope);
          return subscribe(source, args, context, info);
        };
      }
    }
  }
  return schema;
}
