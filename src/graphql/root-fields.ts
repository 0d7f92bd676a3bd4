import { getOperationAST, Kind } from 'graphql';
import type { DocumentNode, SelectionSetNode } from 'graphql';

function collect(selectionSet: SelectionSetNode, document: DocumentNode, names: string[]): string[] {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet, document, names);
    else {
      const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION) collect(fragment.selectionSet, document, names);
    }
  }
  return names;
}

/** The top-level fields the chosen operation selects, through fragments. */
export function rootFields(document: DocumentNode, operationName: string | null | undefined): string[] {
  const operation = getOperationAST(document, operationName);
  return operation ? collect(operation.selectionSet, document, []) : [];
}
