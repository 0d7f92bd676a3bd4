import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { errorCatalogue } from '../../errors/index.ts';
import { WWW_AUTHENTICATE } from '../../http/bearer-token.ts';
import type { GraphQLContext } from '../context.ts';
import { rootFields } from '../root-fields.ts';

/**
 * Contract §5 on GraphQL: an operation that selects any Query or Mutation field needs a
 * valid key, else HTTP 401 and no data. Introspection alone (`__schema`, `__type`,
 * `__typename`) is open, so GraphiQL can show the docs before a key is set.
 */
export function useRequireKey<Context extends GraphQLContext>(): Plugin<Context> {
  return {
    onExecute({ args }) {
      if (args.contextValue.principal) return;
      if (rootFields(args.document, args.operationName).every((name) => name.startsWith('__'))) return;
      throw new GraphQLError(errorCatalogue.UNAUTHORIZED.message, {
        extensions: { code: 'UNAUTHORIZED', status: 401, http: { status: 401, headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } } },
      });
    },
  };
}
