import { getOperationAST, GraphQLError, Kind } from 'graphql';
import type { DocumentNode, SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { errorCatalogue } from '../../errors/index.ts';
import { WWW_AUTHENTICATE } from '../../http/bearer-token.ts';
import type { GraphQLContext } from '../context.ts';

function onlyIntrospection(selectionSet: SelectionSetNode, document: DocumentNode): boolean {
  return selectionSet.selections.every((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value.startsWith('__');
    if (selection.kind === Kind.INLINE_FRAGMENT) return onlyIntrospection(selection.selectionSet, document);
    const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
    return fragment?.kind === Kind.FRAGMENT_DEFINITION && onlyIntrospection(fragment.selectionSet, document);
  });
}

/**
 * Contract §5 on GraphQL: an operation that selects any Query or Mutation field needs a
 * valid key, else HTTP 401 and no data. Introspection alone (`__schema`, `__type`,
 * `__typename`) is open, so GraphiQL can show the docs before a key is set.
 */
export function useRequireKey<Context extends GraphQLContext>(): Plugin<Context> {
  return {
    onExecute({ args }) {
      if (args.contextValue.principal) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation && onlyIntrospection(operation.selectionSet, args.document)) return;
      throw new GraphQLError(errorCatalogue.UNAUTHORIZED.message, {
        extensions: { code: 'UNAUTHORIZED', status: 401, http: { status: 401, headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } } },
      });
    },
  };
}
