import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError } from 'graphql';
import type { YogaLogger } from 'graphql-yoga';
import { isUnexpected } from './mask-error.ts';

/** Raised while executing a field: graphql-js locates it by its path. */
const inExecution = (error: unknown): boolean => error instanceof GraphQLError && error.path !== undefined;

/**
 * Yoga's logger on the app's. Yoga logs every error its mask changes, a client's mistakes
 * included, which the access line's status already tells: those go to debug. An unexpected error
 * raised while executing is logged at error level with its request id by useLogUnexpectedErrors;
 * one raised outside execution (a plugin's hook) reaches no execution result, so it is logged
 * here, at error level, once.
 */
export function yogaLogger(log: FastifyBaseLogger): YogaLogger {
  const one = (args: unknown[]) => (args.length === 1 ? args[0] : args);
  return {
    debug: (...args) => log.debug(one(args)),
    info: (...args) => log.info(one(args)),
    warn: (...args) => log.warn(one(args)),
    error: (...args) => {
      const [first] = args;
      if (args.length === 1 && isUnexpected(first) && !inExecution(first)) log.error({ err: first }, 'GraphQL request failed');
      else log.debug({ err: one(args) }, 'GraphQL error masked');
    },
  };
}
