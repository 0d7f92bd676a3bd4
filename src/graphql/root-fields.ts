import { getDirectiveValues, getOperationAST, GraphQLIncludeDirective, GraphQLSkipDirective, Kind } from 'graphql';
import type { DocumentNode, FieldNode, FragmentSpreadNode, InlineFragmentNode, SelectionSetNode } from 'graphql';
import { perOperation } from './per-operation.ts';

type Variables = Record<string, unknown> | undefined;

/** Whether @skip / @include leave this selection in, with the request's variables. */
function included(node: FieldNode | FragmentSpreadNode | InlineFragmentNode, variables: Variables): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

function collect(selectionSet: SelectionSetNode, document: DocumentNode, variables: Variables, names: string[]): string[] {
  for (const selection of selectionSet.selections) {
    if (variables !== undefined && !included(selection, variables)) continue;
    if (selection.kind === Kind.FIELD) names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet, document, variables, names);
    else {
      const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION) collect(fragment.selectionSet, document, variables, names);
    }
  }
  return names;
}

/**
 * The top-level fields the chosen operation selects, through fragments, one entry per
 * selection (aliases included). With `variables`, only those that will run: @skip and
 * @include are applied. Without, every field written (the stricter count, for key checks).
 */
export function rootFields(document: DocumentNode, operationName: string | null | undefined, variables?: Variables): string[] {
  const operation = getOperationAST(document, operationName);
  return operation ? collect(operation.selectionSet, document, variables, []) : [];
}

/**
 * rootFields without variables (every field written), remembered per document: a busy
 * operation is walked once.
 */
export const writtenRootFields: (document: DocumentNode, operationName: string | null | undefined) => readonly string[] = perOperation(
  (document, operationName) => rootFields(document, operationName),
);
