import { getNamedType, getOperationAST, isObjectType, Kind } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, GraphQLObjectType, GraphQLSchema, SelectionSetNode } from 'graphql';
import type { VersionedTable } from '../services/versions/index.ts';

/**
 * The tables a field's own resolver reads, by schema coordinate: `orders` and `messages` are the
 * caller's own (their versions are per account), `pets` everyone's. A root field not listed is
 * never cached (a field added to the schema stays uncached until someone says what it reads);
 * myKeys is left out on purpose: its lastUsedAt moves without a version (the key-usage flush).
 */
const READS: Readonly<Record<string, readonly VersionedTable[]>> = {
  'Query.pets': ['pets'],
  'Query.pet': ['pets'],
  'Query.orders': ['orders'],
  'Query.order': ['orders'],
  'Query.message': ['messages'],
  'Pet.orders': ['orders'],
  'Order.pet': ['pets'],
};

interface Walk {
  fragments: Map<string, FragmentDefinitionNode>;
  tables: Set<VersionedTable>;
  /** Fragments already walked, by name and the type they were spread on: each once. */
  walked: Set<string>;
}

/** Adds what `set` reads to the walk; false when it selects a root field that is never cached. */
function reads(walk: Walk, set: SelectionSetNode, type: GraphQLObjectType, root: boolean): boolean {
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (!reads(walk, selection.selectionSet, type, root)) return false;
      continue;
    }
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = walk.fragments.get(selection.name.value);
      const key = `${selection.name.value}\n${type.name}`;
      if (!fragment || walk.walked.has(key)) continue;
      walk.walked.add(key);
      if (!reads(walk, fragment.selectionSet, type, root)) return false;
      continue;
    }
    const name = selection.name.value;
    if (name === '__typename') continue;
    const coordinate = `${type.name}.${name}`;
    const tables = READS[coordinate];
    if (root && tables === undefined) return false;
    for (const table of tables ?? []) walk.tables.add(table);
    const fieldType = type.getFields()[name]?.type;
    const named = fieldType && getNamedType(fieldType);
    if (selection.selectionSet && isObjectType(named) && !reads(walk, selection.selectionSet, named, false)) return false;
  }
  return true;
}

/**
 * The tables a query's answer is read from, through every field it selects (fragments each once),
 * or null when it may not be cached: a mutation or a subscription, a document that names no
 * single operation, a root field not in READS. Every field written counts, @skip and @include
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
  return reads(walk, operation.selectionSet, query, true) ? [...walk.tables].sort() : null;
}
