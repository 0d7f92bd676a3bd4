import { getOperationAST, Kind } from 'graphql';
import type { DocumentNode, FieldNode, FragmentDefinitionNode, FragmentSpreadNode, InlineFragmentNode, SelectionSetNode } from 'graphql';
import { operationFact } from './document-entry.ts';

type Variables = Record<string, unknown> | undefined;
type Selection = FieldNode | FragmentSpreadNode | InlineFragmentNode;

/**
 * The `if:` of @skip or @include on a selection, with the request's variables; undefined without
 * the directive. Read from the node, not through graphql's getDirectiveValues, whose variables
 * argument changed shape in graphql 17 (the document is valid by now: `if` is a Boolean or a variable).
 */
function condition(node: Selection, directive: 'skip' | 'include', variables: Record<string, unknown>): unknown {
  const value = node.directives?.find((d) => d.name.value === directive)?.arguments?.find((a) => a.name.value === 'if')?.value;
  if (value?.kind === Kind.BOOLEAN) return value.value;
  if (value?.kind === Kind.VARIABLE) return variables[value.name.value];
  return undefined;
}

/** Whether @skip / @include leave this selection in, with the request's variables. */
function included(node: Selection, variables: Record<string, unknown>): boolean {
  if (condition(node, 'skip', variables) === true) return false;
  return condition(node, 'include', variables) !== false;
}

interface Collect {
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Variables;
  /** Fragments already collected: as in graphql-js's own field collection, a fragment's fields are taken once. */
  visited: Set<string>;
  names: string[];
}

function collect(selectionSet: SelectionSetNode, walk: Collect): void {
  for (const selection of selectionSet.selections) {
    if (walk.variables !== undefined && !included(selection, walk.variables)) continue;
    if (selection.kind === Kind.FIELD) walk.names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet, walk);
    else if (!walk.visited.has(selection.name.value)) {
      walk.visited.add(selection.name.value);
      const fragment = walk.fragments.get(selection.name.value);
      if (fragment) collect(fragment.selectionSet, walk);
    }
  }
}

/**
 * The top-level fields the chosen operation selects, through fragments, one entry per
 * selection (aliases included); each fragment is taken once, as execution does, so the walk is
 * linear in the document. With `variables`, only those that will run: @skip and @include are
 * applied. Without, every field written (the stricter count, for key checks).
 */
export function rootFields(document: DocumentNode, operationName: string | null | undefined, variables?: Variables): string[] {
  const operation = getOperationAST(document, operationName);
  if (!operation) return [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const walk: Collect = { fragments, variables, visited: new Set(), names: [] };
  collect(operation.selectionSet, walk);
  return walk.names;
}

/**
 * rootFields without variables (every field written), in the document's entry: a busy operation
 * is walked once.
 */
export function writtenRootFields(document: DocumentNode, operationName: string | null | undefined): readonly string[] {
  return operationFact(document, operationName, 'writtenRootFields', rootFields);
}
