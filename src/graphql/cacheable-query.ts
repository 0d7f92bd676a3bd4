import { getNamedType, getOperationAST, isObjectType, Kind } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, GraphQLObjectType, GraphQLSchema, SelectionSetNode } from 'graphql';
import type { VersionedTable } from '../services/versions/index.ts';
import { readsOf } from './resolvers/reading.ts';

interface Walk {
  fragments: Map<string, FragmentDefinitionNode>;
  tables: Set<VersionedTable>;
  /** Fragments already walked, by name and the type they were spread on: each once. */
  walked: Set<string>;
}

/** Adds what `set` reads to the walk; false when it selects a field whose answer may not be kept. */
function reads(walk: Walk, set: SelectionSetNode, type: GraphQLObjectType): boolean {
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (!reads(walk, selection.selectionSet, type)) return false;
      continue;
    }
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = walk.fragments.get(selection.name.value);
      const key = `${selection.name.value}\n${type.name}`;
      if (!fragment || walk.walked.has(key)) continue;
      walk.walked.add(key);
      if (!reads(walk, fragment.selectionSet, type)) return false;
      continue;
    }
    if (selection.name.value === '__typename') continue;
    const field = type.getFields()[selection.name.value];
    // Introspection (__schema, __type) and unknown fields (validation refuses them): not kept.
    if (!field) return false;
    const declared = readsOf(field);
    if (declared === undefined || declared === 'uncacheable') return false;
    for (const table of declared) walk.tables.add(table);
    const named = getNamedType(field.type);
    if (selection.selectionSet && isObjectType(named) && !reads(walk, selection.selectionSet, named)) return false;
  }
  return true;
}

/**
 * The tables a query's answer is read from, as each field it selects declares them beside its
 * resolver (resolvers/reading.ts), through fragments (each once), or null when it may not be
 * kept: a mutation or a subscription, a document that names no single operation, a field that
 * declares itself uncacheable or declares nothing. Every field written counts, @skip and @include
 * aside: the stricter set. So `{ orders { nodes { id } } }` reads only the caller's orders, and
 * its tag moves with nothing another account does; `{ orders { nodes { pet { name } } } }` reads
 * pets too.
 */
export function cacheableReads(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
): readonly VersionedTable[] | null {
  const operation = getOperationAST(document, operationName);
  const query = schema.getQueryType();
  if (operation?.operation !== 'query' || !query) return null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const walk: Walk = { fragments, tables: new Set(), walked: new Set() };
  return reads(walk, operation.selectionSet, query) ? [...walk.tables].sort() : null;
}
