import type { DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { unauthorized } from '../../http/auth/bearer-token.ts';
import type { GraphQLContext } from '../context.ts';
import type { ServerContext } from '../create-graphql.ts';
import { writtenRootFields } from '../root-fields.ts';

/**
 * Contract §5 on GraphQL: an operation that selects any Query, Mutation or Subscription field needs a
 * valid key, else HTTP 401 (with REST's words and WWW-Authenticate) and no data.
 * Introspection alone (`__schema`, `__type`, `__typename`) is open, so GraphiQL can show
 * the docs before a key is set.
 */
export function useRequireKey<Context extends GraphQLContext & ServerContext>(): Plugin<Context> {
  const check = ({ args }: { args: { contextValue: Context; document: DocumentNode; operationName?: string | null } }) => {
    if (args.contextValue.principal) return;
    if (writtenRootFields(args.document, args.operationName).every((name) => name.startsWith('__'))) return;
    throw unauthorized(args.contextValue.req.headers.authorization, args.contextValue.req.accountDisabled);
  };
  // Subscriptions do not execute: they subscribe, and need the key all the same.
  return { onExecute: check, onSubscribe: check };
}
