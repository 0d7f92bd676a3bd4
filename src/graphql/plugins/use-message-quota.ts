import type { Plugin } from 'graphql-yoga';
import type { ServerContext } from '../create-graphql.ts';
import { rootFields, writtenRootFields } from '../root-fields.ts';
import type { MaybePromise } from '../../http/maybe-promise.ts';

/**
 * sendMessage counts against the same per-key message quota as POST /messages: every
 * sendMessage the operation will run, aliases included, is charged before any runs, all or
 * none, so an operation over the quota sends nothing.
 */
export function useMessageQuota<Context extends ServerContext>(
  charge: (context: ServerContext, count: number) => MaybePromise<void>,
): Plugin<Context> {
  return {
    onExecute({ args }) {
      // @skip and @include only take fields away: an operation that writes no sendMessage sends none.
      if (!writtenRootFields(args.document, args.operationName).includes('sendMessage')) return;
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      const count = rootFields(args.document, args.operationName, variables).filter((name) => name === 'sendMessage').length;
      if (count > 0) return charge(args.contextValue, count);
    },
  };
}
