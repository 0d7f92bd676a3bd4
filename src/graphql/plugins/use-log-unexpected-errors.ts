import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { appErrorOf } from '../../services/app-error-of.ts';
import type { GraphQLContext } from '../context.ts';

/** Clients see "An unexpected error occurred." (INTERNAL_ERROR); the log keeps the real error with the request id to find it by. */
export function useLogUnexpectedErrors<Context extends GraphQLContext>(): Plugin<Context> {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          if (!('errors' in result) || !result.errors) return;
          for (const error of result.errors) {
            const original = error instanceof GraphQLError ? error.originalError : error;
            if (!original || original instanceof GraphQLError) continue;
            const code = appErrorOf(original)?.code;
            if (code !== undefined && code !== 'INTERNAL_ERROR') continue;
            args.contextValue.log.error(
              { err: original, requestId: args.contextValue.requestId, path: error.path },
              'GraphQL resolver failed',
            );
          }
        },
      };
    },
  };
}
