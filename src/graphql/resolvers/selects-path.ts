import { Kind } from 'graphql';
import type { FragmentDefinitionNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';

type Fragments = Record<string, FragmentDefinitionNode>;

function selects(selectionSet: SelectionSetNode | undefined, path: readonly string[], fragments: Fragments): boolean {
  if (!selectionSet) return false;
  const [name, ...rest] = path;
  return selectionSet.selections.some((selection) => {
    if (selection.kind === Kind.INLINE_FRAGMENT) return selects(selection.selectionSet, path, fragments);
    if (selection.kind === Kind.FRAGMENT_SPREAD) return selects(fragments[selection.name.value]?.selectionSet, path, fragments);
    if (selection.name.value !== name) return false;
    return rest.length === 0 || selects(selection.selectionSet, rest, fragments);
  });
}

/**
 * Whether the field being resolved selects `path` below it (`['nodes', 'pet']`), through
 * fragments. A look-ahead for reading a relation with its parents. It errs towards yes: a field
 * under @skip counts, so at worst a relation is read and not shown.
 */
export function selectsPath(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: readonly string[]): boolean {
  return info.fieldNodes.some((node) => selects(node.selectionSet, path, info.fragments));
}
