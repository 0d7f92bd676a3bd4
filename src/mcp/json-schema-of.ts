import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  specifiedScalarTypes,
  typeFromAST,
  valueFromASTUntyped,
} from 'graphql';
import type {
  GraphQLInputType,
  GraphQLOutputType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
  GraphQLCompositeType,
  FragmentDefinitionNode,
  ValueNode,
} from 'graphql';
import { acceptedValuesOf, orNull, withoutNull } from '../util/json-schema.ts';
import type { JsonSchema } from '../util/json-schema.ts';

export type { JsonSchema };

export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * How each scalar reaches JSON, as the GraphQL face answers it: an ID as the string GraphQL
 * answers with (REST's int64 ids, as GraphQL carries them), SafeInt as an exact integer, Int as GraphQL's
 * 32 bits, DateTime as RFC 3339 text. A scalar not listed is any JSON value. Inputs say what
 * the API accepts where it is used (graphql/accepted-values.ts), which is narrower.
 */
const SCALARS: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  Int: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
  Float: { type: 'number' },
  SafeInt: { type: 'integer', minimum: -MAX_SAFE, maximum: MAX_SAFE },
  DateTime: { type: 'string', format: 'date-time' },
};

/**
 * An ID as a tool takes it where no accepted values are stated: the string GraphQL answers
 * with, or the integer REST's contract has (GraphQL's ID takes both, so does a tool).
 */
const ID_INPUT: JsonSchema = { type: ['string', 'integer'] };

const described = (schema: JsonSchema, description: string | null | undefined): JsonSchema =>
  description ? { ...schema, description } : schema;

const takesNull = (schema: JsonSchema): boolean =>
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((option) => option.type === 'null'));

/**
 * An input type as JSON Schema: what GraphQL would accept as a variable's value, where nullable
 * means null is allowed and an input object's non-null fields without a default are required;
 * each input field as the API accepts it (its `accepts`) where that is stated. Input objects are
 * expanded where they appear (the schema's inputs do not nest into themselves; one that did
 * would be cut off as any object, not walked forever). A built-in scalar's description (GraphQL's
 * "The `ID` scalar type represents…") says nothing of the argument, and is left out.
 */
export function inputSchemaOf(type: GraphQLInputType, seen: ReadonlySet<string> = new Set()): JsonSchema {
  if (isNonNullType(type)) return nonNullInput(type.ofType, seen);
  return orNull(nonNullInput(type, seen));
}

/** The schema of a value of `type` where the API accepts `accepted` (when stated): the accepted values, or an input object's fields. */
function acceptedInput(type: GraphQLInputType, accepted: JsonSchema | undefined, seen: ReadonlySet<string>): JsonSchema {
  if (!accepted) return inputSchemaOf(type, seen);
  const named = getNamedType(type);
  const schema = isInputObjectType(named) ? (takesNull(accepted) ? orNull(nonNullInput(type, seen)) : nonNullInput(type, seen)) : accepted;
  return isNonNullType(type) ? withoutNull(schema) : schema;
}

function nonNullInput(type: GraphQLInputType, seen: ReadonlySet<string>): JsonSchema {
  if (isNonNullType(type)) return nonNullInput(type.ofType, seen);
  if (isListType(type)) return { type: 'array', items: inputSchemaOf(type.ofType, seen) };
  if (isEnumType(type)) return described({ type: 'string', enum: type.getValues().map((value) => value.name) }, type.description);
  if (isInputObjectType(type)) {
    if (seen.has(type.name)) return { type: 'object' };
    const inner = new Set(seen).add(type.name);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of Object.values(type.getFields())) {
      const accepted = acceptedValuesOf(field);
      // The schema's own words for the field where it has them, else the service's.
      properties[field.name] = described(acceptedInput(field.type, accepted, inner), field.description);
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
    }
    return described(
      { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
      type.description,
    );
  }
  if (type.name === 'ID') return ID_INPUT;
  return described(
    SCALARS[type.name] ?? {},
    isScalarType(type) && !specifiedScalarTypes.includes(type) && !(type.name in SCALARS) ? type.description : null,
  );
}

/** Where a variable is used first: the argument or input field it stands for (its description and accepted values), unless it is an item of a list. */
interface VariableUse {
  description: string | null | undefined;
  accepts: JsonSchema | undefined;
}

/**
 * Where each variable is used first, and so what the schema says of it there: the argument's or
 * input field's description and accepted values. Linear in the operation (its fragments are not
 * walked: a variable used only in a fragment is described by its type).
 */
function usesOf(schema: GraphQLSchema, operation: OperationDefinitionNode): Map<string, VariableUse> {
  const uses = new Map<string, VariableUse>();
  const root = { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() }[
    operation.operation
  ];
  type Target = { description?: string | null; type: GraphQLInputType; extensions?: unknown };
  const note = (value: ValueNode, target: Target | undefined, item: boolean) => {
    if (value.kind === Kind.VARIABLE) {
      if (target && !uses.has(value.name.value))
        uses.set(value.name.value, { description: target.description, accepts: item ? undefined : acceptedValuesOf(target) });
    } else if (value.kind === Kind.OBJECT) {
      const named = target ? getNamedType(target.type) : undefined;
      const fields = named && isInputObjectType(named) ? named.getFields() : {};
      for (const field of value.fields) note(field.value, fields[field.name.value], false);
    } else if (value.kind === Kind.LIST) {
      for (const entry of value.values) note(entry, target, true);
    }
  };
  const walk = (selections: SelectionSetNode, parent: GraphQLCompositeType | null | undefined) => {
    for (const selection of selections.selections) {
      if (selection.kind !== Kind.FIELD) {
        if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet, parent);
        continue;
      }
      const field = parent && isObjectType(parent) ? parent.getFields()[selection.name.value] : undefined;
      for (const argument of selection.arguments ?? []) {
        note(
          argument.value,
          field?.args.find((arg) => arg.name === argument.name.value),
          false,
        );
      }
      if (selection.selectionSet) {
        const named = field ? getNamedType(field.type) : undefined;
        walk(selection.selectionSet, named && isObjectType(named) ? named : null);
      }
    }
  };
  walk(operation.selectionSet, root);
  return uses;
}

/**
 * A tool's input: an object of the operation's variables, each as the API accepts it where it
 * is used (a variable with a default, or nullable, may be left out), described as the schema
 * describes that place, with the variable's default, else the API's own. Null for a variable
 * whose type the schema lacks (the document would not validate).
 */
export function variablesSchema(schema: GraphQLSchema, operation: OperationDefinitionNode): JsonSchema | null {
  const uses = usesOf(schema, operation);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) return null;
    const name = definition.variable.name.value;
    const use = uses.get(name);
    const accepted = acceptedInput(type, use?.accepts, new Set());
    const named = getNamedType(type);
    // The document's own words for the variable (`"…" $first: Int`), else the schema's for the
    // argument or field where it has them, else the service's, else its enum's or input object's.
    const description =
      definition.description?.value ?? use?.description ?? accepted.description ?? (isScalarType(named) ? null : named.description);
    properties[name] = {
      ...described(accepted, typeof description === 'string' ? description : null),
      ...(definition.defaultValue ? { default: valueFromASTUntyped(definition.defaultValue) } : {}),
    };
    if (isNonNullType(type) && !definition.defaultValue) required.push(name);
  }
  return {
    $schema: JSON_SCHEMA_2020_12,
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * A tool's output: the shape of the operation's `data`, read from its selection set over the
 * schema (an alias names its property; a nullable field may be null; `__typename` is a string).
 * Fragments are merged where they apply to the type they sit in. Each selection is visited once
 * per place it sits, and each named fragment expanded where it is spread (the document was
 * validated: fragments do not cycle).
 */
export function dataSchema(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): JsonSchema {
  const root = { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() }[
    operation.operation
  ];
  return { $schema: JSON_SCHEMA_2020_12, ...selectionSchema(root ?? null, [operation.selectionSet], fragments) };
}

function selectionSchema(
  parent: GraphQLCompositeType | null,
  sets: readonly SelectionSetNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  // Selections of one response name are merged before their sub-selections are read.
  const merged = new Map<string, { field: string; sets: SelectionSetNode[] }>();
  // A fragment spread twice at one level adds nothing the first did not: expanded once, so the
  // walk stays linear in the document however its fragments nest.
  const expanded = new Set<string>();
  const collect = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const entry = merged.get(key) ?? { field: selection.name.value, sets: [] };
        if (selection.selectionSet) entry.sets.push(selection.selectionSet);
        merged.set(key, entry);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else if (!expanded.has(selection.name.value)) {
        expanded.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  for (const set of sets) collect(set);
  for (const [key, { field: name, sets: inner }] of merged) {
    if (name === '__typename') {
      properties[key] = { type: 'string' };
      required.add(key);
      continue;
    }
    const field = parent && isObjectType(parent) ? parent.getFields()[name] : undefined;
    if (!field) {
      properties[key] = {};
      continue;
    }
    properties[key] = described(outputSchemaOf(field.type, inner, fragments), field.description);
    required.add(key);
  }
  return { type: 'object', properties, ...(required.size ? { required: [...required] } : {}), additionalProperties: false };
}

function outputSchemaOf(
  type: GraphQLOutputType,
  sets: readonly SelectionSetNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): JsonSchema {
  if (isNonNullType(type)) return nonNullOutput(type.ofType, sets, fragments);
  return orNull(nonNullOutput(type, sets, fragments));
}

/** `type` with its non-null wrapper taken off (GraphQL never wraps a non-null in another). */
function nonNullOutput(
  type: GraphQLOutputType,
  sets: readonly SelectionSetNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): JsonSchema {
  if (isListType(type)) return { type: 'array', items: outputSchemaOf(type.ofType, sets, fragments) };
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((value) => value.name) };
  if (isScalarType(type)) return SCALARS[type.name] ?? {};
  // An object (or an abstract type: its fields are read from the fragments that name them).
  return selectionSchema(isObjectType(type) ? type : null, sets, fragments);
}
