import type { Plugin } from 'graphql-yoga';
import type { ServerContext } from '../create-yoga.ts';
import { rootFields } from '../root-fields.ts';

/** sendMessage counts against the same per-key message quota as POST /messages. */
export function useMessageQuota<Context extends ServerContext>(check: (context: ServerContext) => void): Plugin<Context> {
  return {
    onExecute({ args }) {
      if (rootFields(args.document, args.operationName).includes('sendMessage')) check(args.contextValue);
    },
  };
}
