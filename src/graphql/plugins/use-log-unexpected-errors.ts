import { handleStreamOrSingleExecutionResult } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../context.ts';
import { logUnexpected } from '../log-unexpected.ts';

/**
 * Clients see "An unexpected error occurred." (INTERNAL_ERROR); the log keeps the real error,
 * once, at error level, with the request id to find it by: for queries, mutations and every
 * event of a subscription. Yoga's own log of the errors it masks is kept at debug level
 * (create-graphql.ts): a client's mistake is already the access line's status.
 */
export function useLogUnexpectedErrors<Context extends GraphQLContext>(): Plugin<Context> {
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) => handleStreamOrSingleExecutionResult(payload, ({ result }) => logUnexpected(args.contextValue, result)),
    }),
    onSubscribe: ({ args }) => ({
      onSubscribeResult: () => ({ onNext: ({ result }) => logUnexpected(args.contextValue, result) }),
    }),
  };
}
