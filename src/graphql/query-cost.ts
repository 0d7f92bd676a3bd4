import { getNamedType, getNullableType, isListType, isObjectType, Kind, valueFromASTUntyped } from 'graphql';
import type { DocumentNode, FieldNode, GraphQLObjectType, GraphQLSchema, OperationDefinitionNode, SelectionSetNode } from 'graphql';
import { PAGE_SIZE } from '../services/pagination/keyset-page.ts';

/** What an operation may cost (QUERY_TOO_COMPLEX past it); docs/graphql.md lists the same weights. */
export const QUERY_COST = {
  max: 5_000,
  /** Any field. */
  field: 1,
  /** A field that runs a query of its own each time it appears: a root field, a count, a flag behind the cursor. */
  query: 10,
  /** A relation read for a whole page at once (a join or one batched query): a row per item. */
  batched: 2,
  /** Items assumed for a connection's nodes or edges when neither `first` nor `last` is given: the default page. */
  defaultPage: PAGE_SIZE.default,
  /** Items assumed for a list with no page size (your keys). */
  list: 10,
} as const;

const BATCHED = new Set(['Pet.orders', 'Order.pet']);
const QUERIES = new Set(['PetConnection.totalCount', 'OrderConnection.totalCount', 'PageInfo.hasNextPage', 'PageInfo.hasPreviousPage']);
/** A pet's orders by one account: at most the one that holds it (a cancelled order is removed, a sold pet is not ordered again). */
const BOUNDED_LISTS: Record<string, number> = { 'Pet.orders': 1 };

type Variables = Record<string, unknown> | undefined;

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, SelectionSetNode>;
  variables: Variables;
  /** A fragment's cost once, by where it is spread (its parent type and page): each is walked once, whatever spreads it. */
  fragmentCosts: Map<string, number>;
}

function weight(schema: GraphQLSchema, type: GraphQLObjectType, field: string): number {
  const coordinate = `${type.name}.${field}`;
  if (BATCHED.has(coordinate)) return QUERY_COST.batched;
  const isRoot = type === schema.getQueryType() || type === schema.getMutationType() || type === schema.getSubscriptionType();
  return (isRoot && !field.startsWith('__')) || QUERIES.has(coordinate) ? QUERY_COST.query : QUERY_COST.field;
}

/** The page size a connection field asks for: `first` or `last`, literal or variable, else the default page. */
function pageSize(node: FieldNode, variables: Variables): number {
  for (const argument of node.arguments ?? []) {
    if (argument.name.value !== 'first' && argument.name.value !== 'last') continue;
    const value = valueFromASTUntyped(argument.value, variables);
    if (typeof value === 'number' && value > 0) return value;
  }
  return QUERY_COST.defaultPage;
}

/** What a fragment spread costs once, where `type` is the type it is spread on. */
function fragmentCost(walk: Walk, name: string, type: GraphQLObjectType, page: number): number {
  const key = `${name}\n${type.name}\n${page}`;
  let total = walk.fragmentCosts.get(key);
  if (total !== undefined) return total;
  const fragment = walk.fragments.get(name);
  // Set before the walk: a cycle (refused before any cost is worked out) could not loop here either.
  walk.fragmentCosts.set(key, 0);
  total = fragment ? cost(walk, fragment, type, page) : 0;
  walk.fragmentCosts.set(key, total);
  return total;
}

/** What a selection costs once; everything in it counts once more per item of the list it sits under. */
function cost(walk: Walk, selectionSet: SelectionSetNode, type: GraphQLObjectType, page: number): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      total += cost(walk, selection.selectionSet, type, page);
      continue;
    }
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      total += fragmentCost(walk, selection.name.value, type, page);
      continue;
    }
    const name = selection.name.value;
    total += weight(walk.schema, type, name);
    const field = type.getFields()[name];
    const fieldType = field && getNamedType(field.type);
    if (!selection.selectionSet || !field || !isObjectType(fieldType)) continue;
    // A connection's nodes and edges come once per item of its page; another list, once per item it may hold.
    let each = 1;
    if (type.name.endsWith('Connection') && (name === 'nodes' || name === 'edges')) each = page;
    else if (isListType(getNullableType(field.type))) each = BOUNDED_LISTS[`${type.name}.${name}`] ?? QUERY_COST.list;
    const childPage = fieldType.name.endsWith('Connection') ? pageSize(selection, walk.variables) : page;
    total += each * cost(walk, selection.selectionSet, fieldType, childPage);
  }
  return total;
}

/**
 * What an operation costs to run, in the units of QUERY_COST: every field 1, a field that runs
 * a query of its own 10, a relation read for a page at once 2 a row, and everything under a
 * connection's nodes or edges once per item of the page it asks for (`first`/`last`, with the
 * request's variables). The work is what the database and the resolvers do, so the same shape
 * costs the same whatever the tables hold: counts are one row (row_counts), pages are keyset.
 * Linear in the document: a fragment is walked once per type and page it is spread under.
 */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Variables): number {
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return 0;
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  }
  return cost({ schema, fragments, variables, fragmentCosts: new Map() }, operation.selectionSet, root, QUERY_COST.defaultPage);
}
