import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { unauthorized, WWW_AUTHENTICATE } from '../../http/bearer-token.ts';
import type { GraphQLContext } from '../context.ts';
import type { ServerContext } from '../create-yoga.ts';
import { rootFields } from '../root-fields.ts';

/**
 * Contract §5 on GraphQL: an operation that selects any Query or Mutation field needs a
 * valid key, else HTTP 401 and no data. Introspection alone (`__schema`, `__type`,
 * `__typename`) is open, so GraphiQL can show the docs before a key is set.
 */
export function useRequireKey<Context extends GraphQLContext & ServerContext>(): Plugin<Context> {
  return {
    onExecute({ args }) {
      if (args.contextValue.principal) return;
      if (rootFields(args.document, args.operationName).every((name) => name.startsWith('__'))) return;
      throw new GraphQLError(unauthorized(args.contextValue.req.headers.authorization).message, {
        extensions: { code: 'UNAUTHORIZED', status: 401, http: { status: 401, headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } } },
      });
    },
  };
}
