import {
  buildASTSchema,
  getDirectiveValues,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  valueFromASTUntyped,
} from 'graphql';
import type {
  DocumentNode,
  FieldNode,
  GraphQLCompositeType,
  GraphQLDirective,
  GraphQLField,
  GraphQLNamedType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';

/** What an operation may cost (QUERY_TOO_COMPLEX past it), and what an operation of each type costs before its fields. */
export const QUERY_COST = {
  max: 5_000,
  /** A mutation's own weight, the IBM cost specification's default (writes run in a transaction). */
  mutation: 10,
  /** Entity references (`_entities(representations:)`) one operation may carry, over all its aliases. */
  maxReferences: 1_000,
} as const;

/**
 * Fields whose list is as long as a list argument: federation's `_entities` answers one item
 * per reference a gateway sends, so it is priced per reference (10 for the field, whose batch is
 * one query per type, then each item as any list's). Not in the SDL: the federation library adds
 * the field, and gateways, which write these queries themselves, do not price them.
 */
const SIZED_BY_ARGUMENT: ReadonlyMap<string, { argument: string; weight: number }> = new Map([
  ['Query._entities', { argument: 'representations', weight: 10 }],
]);

/** What an operation costs, and how many entity references it carries (each bounded: QUERY_COST). */
export interface OperationCost {
  cost: number;
  references: number;
}

type Variables = Record<string, unknown> | undefined;

/** A field's @listSize, as schema/cost.graphql declares it. */
interface ListSize {
  assumedSize?: number;
  slicingArguments?: readonly string[];
  sizedFields?: readonly string[];
}

/** The cost directives of a schema, read once: by coordinate (`Type.field`) and by type. */
interface CostRules {
  fieldWeight: Map<string, number>;
  listSize: Map<string, ListSize>;
  typeWeight: Map<string, number>;
}

// The directives as schema/cost.graphql defines them, to read their arguments (with defaults) off any schema's AST nodes.
const DIRECTIVES = (() => {
  const sdl = parse(`
    directive @cost(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR
    directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
    type Query { _: Int }
  `);
  const schema = buildASTSchema(sdl);
  return { cost: schema.getDirective('cost') as GraphQLDirective, listSize: schema.getDirective('listSize') as GraphQLDirective };
})();

const rulesOf = new WeakMap<GraphQLSchema, CostRules>();

/** The @cost and @listSize a schema's SDL puts on its fields and types (type extensions included). */
function costRules(schema: GraphQLSchema): CostRules {
  let rules = rulesOf.get(schema);
  if (rules) return rules;
  rules = { fieldWeight: new Map(), listSize: new Map(), typeWeight: new Map() };
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    const typeCost = type.astNode ? getDirectiveValues(DIRECTIVES.cost, type.astNode) : undefined;
    if (typeCost) rules.typeWeight.set(type.name, typeCost.weight as number);
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.astNode) continue;
      const coordinate = `${type.name}.${field.name}`;
      const cost = getDirectiveValues(DIRECTIVES.cost, field.astNode);
      if (cost) rules.fieldWeight.set(coordinate, cost.weight as number);
      const listSize = getDirectiveValues(DIRECTIVES.listSize, field.astNode);
      if (listSize) rules.listSize.set(coordinate, listSize as ListSize);
    }
  }
  rulesOf.set(schema, rules);
  return rules;
}

interface Walk {
  schema: GraphQLSchema;
  rules: CostRules;
  fragments: Map<string, { type: string; selectionSet: SelectionSetNode }>;
  variables: Variables;
  /** A fragment's cost once per type and sizing it is spread under: each is walked once, whatever spreads it. */
  fragmentCosts: Map<string, OperationCost>;
}

/** The sizes the lists under a connection take (`nodes`, `edges`), by field name; null where none is sized. */
type Sized = ReadonlyMap<string, number> | null;

/** The value of the first slicing argument given (a literal or a variable), else the assumed size. */
function slicingSize(node: FieldNode, field: GraphQLField<unknown, unknown>, listSize: ListSize, variables: Variables): number {
  let size = 0;
  for (const name of listSize.slicingArguments ?? []) {
    const given = node.arguments?.find((argument) => argument.name.value === name);
    const value = given ? valueFromASTUntyped(given.value, variables) : field.args.find((argument) => argument.name === name)?.defaultValue;
    if (typeof value === 'number' && value > size) size = value;
  }
  return size > 0 ? size : (listSize.assumedSize ?? 1);
}

/** What a type costs where a field returns it: its own @cost, else 1 for an object (or interface, union), 0 for a scalar or enum. */
function typeWeight(rules: CostRules, type: GraphQLNamedType): number {
  return rules.typeWeight.get(type.name) ?? (isCompositeType(type) ? 1 : 0);
}

const NOTHING: OperationCost = { cost: 0, references: 0 };

function fragmentCost(walk: Walk, name: string, sized: Sized): OperationCost {
  const fragment = walk.fragments.get(name);
  if (!fragment) return NOTHING;
  const key = `${name}\n${sized ? [...sized].join(',') : ''}`;
  let total = walk.fragmentCosts.get(key);
  if (total !== undefined) return total;
  // Set before the walk: a cycle (refused before any cost is worked out) could not loop here either.
  walk.fragmentCosts.set(key, NOTHING);
  const type = walk.schema.getType(fragment.type);
  total = type && isCompositeType(type) ? cost(walk, fragment.selectionSet, type, sized) : NOTHING;
  walk.fragmentCosts.set(key, total);
  return total;
}

/** How many items a list argument holds (a literal or a variable; a single value is a list of one, as GraphQL coerces it). */
function argumentLength(node: FieldNode, name: string, variables: Variables): number {
  const given = node.arguments?.find((argument) => argument.name.value === name);
  if (!given) return 0;
  const value: unknown = valueFromASTUntyped(given.value, variables);
  return Array.isArray(value) ? value.length : value == null ? 0 : 1;
}

/** What a selection costs, once: each field its weight and its type's, times its list's size, with what is under it. */
function cost(walk: Walk, selectionSet: SelectionSetNode, type: GraphQLCompositeType, sized: Sized): OperationCost {
  let total = 0;
  let references = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : type;
      if (!on || !isCompositeType(on)) continue;
      const inner = cost(walk, selection.selectionSet, on, sized);
      total += inner.cost;
      references += inner.references;
      continue;
    }
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const inner = fragmentCost(walk, selection.name.value, sized);
      total += inner.cost;
      references += inner.references;
      continue;
    }
    const name = selection.name.value;
    // __typename and introspection cost nothing, as in the specification.
    if (name.startsWith('__') || (!isObjectType(type) && !isInterfaceType(type))) continue;
    const field = type.getFields()[name];
    if (!field) continue;
    const coordinate = `${type.name}.${name}`;
    const named = getNamedType(field.type);
    const listSize = walk.rules.listSize.get(coordinate);
    let factor = sized?.get(name) ?? 1;
    let childSized: Sized = null;
    const byArgument = SIZED_BY_ARGUMENT.get(coordinate);
    if (listSize?.sizedFields?.length) {
      const size = slicingSize(selection, field, listSize, walk.variables);
      childSized = new Map(listSize.sizedFields.map((sizedField) => [sizedField, size]));
    } else if (listSize) {
      factor = slicingSize(selection, field, listSize, walk.variables);
    }
    const below = selection.selectionSet && isCompositeType(named) ? cost(walk, selection.selectionSet, named, childSized) : NOTHING;
    if (byArgument) {
      const items = argumentLength(selection, byArgument.argument, walk.variables);
      total += factor * (byArgument.weight + items * (typeWeight(walk.rules, named) + below.cost));
      references += factor * (items + items * below.references);
      continue;
    }
    total += factor * ((walk.rules.fieldWeight.get(coordinate) ?? 0) + typeWeight(walk.rules, named) + below.cost);
    references += factor * below.references;
  }
  return { cost: total, references };
}

/**
 * What an operation costs to run, by the IBM GraphQL cost specification over the schema's own
 * @cost and @listSize (schema/cost.graphql): a mutation 10 to begin with; then each field its
 * weight (10 for one that runs a query of its own, 1 more a row for a relation read for a page
 * at once) plus its type's (1 for an object, 0 for a scalar), times the size of every list it
 * sits in: a connection's `nodes` and `edges` as many as `first` or `last` asks for (20 when
 * neither is given), another list its assumed size. These are the numbers a gateway reading the
 * same directives works out (test/federation). The work is what the database and the resolvers
 * do, so the same shape costs the same whatever the tables hold: counts are one row
 * (row_counts), pages are keyset. A federation `_entities` batch is priced per reference it
 * carries, and the references are counted for their own bound. Linear in the document: a
 * fragment is walked once per sizing it is spread under.
 */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
): OperationCost {
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return NOTHING;
  const fragments = new Map<string, { type: string; selectionSet: SelectionSetNode }>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, { type: definition.typeCondition.name.value, selectionSet: definition.selectionSet });
    }
  }
  const walk: Walk = { schema, rules: costRules(schema), fragments, variables, fragmentCosts: new Map() };
  const { cost: fields, references } = cost(walk, operation.selectionSet, root, null);
  return { cost: (operation.operation === 'mutation' ? QUERY_COST.mutation : 0) + fields, references };
}
