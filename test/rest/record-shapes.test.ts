import { getDirectiveValues, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType } from 'graphql';
import type { GraphQLArgument, GraphQLField, GraphQLInputField, GraphQLInputType, GraphQLOutputType, GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { petstoreSchema } from '../../src/graphql/petstore-schema.ts';
import { isRecordField } from '../../src/util/record-field.ts';
import { NAMED_SCHEMAS } from '../../src/rest/schemas.ts';

// A record has one shape: its GraphQL type in schema/ is the declaration, and REST's body of the
// same name (the services' JSON schema, so the OpenAPI document and Fastify's serializer, which
// drops a property its schema lacks without a word) must hold the same fields, of the same kind.
// MCP's default tools and the parity tests select the record from the schema (record-selection.ts).

interface JsonProperty {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  items?: JsonProperty;
  maxItems?: number;
}
interface JsonRecord {
  required?: readonly string[];
  properties: Record<string, JsonProperty>;
}

/** The JSON types each scalar of the schema may be written as on REST (an ID is REST's integer id, or a message's `msg_…`). */
const JSON_TYPES: Record<string, readonly string[]> = {
  ID: ['integer', 'string'],
  String: ['string'],
  Int: ['integer'],
  SafeInt: ['integer'],
  Float: ['number'],
  Boolean: ['boolean'],
  DateTime: ['string'],
};

type Field = GraphQLField<unknown, unknown> | GraphQLInputField | GraphQLArgument;

/** The REST record each GraphQL record is, where the names differ (an input `XInput` is REST's `X`; arguments are named by their field). */
const REST_NAME_OF: Record<string, keyof typeof NAMED_SCHEMAS> = {
  PlaceOrderInput: 'NewOrder',
  'Mutation.sendMessage': 'NewMessage',
  'Mutation.advanceOrder': 'OrderStatusChange',
};

/** What a record's GraphQL side is: an object or input type, or a mutation's arguments (less the id the REST path carries). */
function graphqlRecords(schema: GraphQLSchema): Map<keyof typeof NAMED_SCHEMAS, { name: string; fields: Field[]; input: boolean }> {
  const records = new Map<keyof typeof NAMED_SCHEMAS, { name: string; fields: Field[]; input: boolean }>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    const restName = (REST_NAME_OF[type.name] ?? type.name.replace(/Input$/, '')) as keyof typeof NAMED_SCHEMAS;
    if (!(restName in NAMED_SCHEMAS)) continue;
    if (isObjectType(type)) {
      const fields = Object.values(type.getFields()).filter(isRecordField);
      records.set(restName, { name: type.name, fields, input: false });
    } else if (isInputObjectType(type)) records.set(restName, { name: type.name, fields: Object.values(type.getFields()), input: true });
  }
  for (const [coordinate, restName] of Object.entries(REST_NAME_OF)) {
    const [typeName, fieldName = ''] = coordinate.split('.');
    if (typeName !== 'Mutation') continue;
    const args =
      schema
        .getMutationType()
        ?.getFields()
        [fieldName]?.args.filter((arg) => arg.name !== 'id') ?? [];
    records.set(restName, { name: `${coordinate}(…)`, fields: args, input: true });
  }
  return records;
}

/** Where the field and the REST property disagree, in words; null when they agree. */
function disagreement(field: Field, property: JsonProperty, required: boolean, input: boolean): string | null {
  const type: GraphQLOutputType | GraphQLInputType = field.type;
  const nonNull = isNonNullType(type);
  const inner = nonNull ? type.ofType : type;
  const jsonTypes = [property.type ?? []].flat();
  if (input ? nonNull !== required : nonNull === jsonTypes.includes('null'))
    return input
      ? `is ${nonNull ? 'required' : 'optional'} in GraphQL and ${required ? 'required' : 'optional'} on REST`
      : `is ${nonNull ? 'non-null' : 'nullable'} in GraphQL and ${jsonTypes.includes('null') ? 'nullable' : 'never null'} on REST`;
  if (isListType(inner) !== jsonTypes.includes('array'))
    return `is ${isListType(inner) ? 'a list' : 'no list'} in GraphQL and ${jsonTypes.includes('array') ? 'an array' : 'no array'} on REST`;
  const leaf = getNamedType(type);
  const restLeaf = isListType(inner) ? (property.items ?? {}) : property;
  if (isEnumType(leaf)) {
    const values = leaf.getValues().map((value) => value.name);
    const restValues = (restLeaf.enum ?? []).filter((value) => value !== null);
    if (JSON.stringify([...values].sort()) !== JSON.stringify([...restValues].sort()))
      return `takes ${values.join(', ')} in GraphQL and ${restValues.join(', ') || 'any value'} on REST`;
    return null;
  }
  const allowed = JSON_TYPES[leaf.name];
  if (!allowed) return `is of the scalar ${leaf.name}, which this test does not know yet: add it to JSON_TYPES`;
  const restTypes = [restLeaf.type ?? []].flat().filter((t) => t !== 'null');
  if (!restTypes.every((t) => allowed.includes(t))) return `is ${leaf.name} in GraphQL and ${restTypes.join(' or ')} on REST`;
  return null;
}

describe('a record has one shape on every face (schema/ is the declaration)', () => {
  const schema = petstoreSchema();
  const records = graphqlRecords(schema);

  it('pairs every REST record with its GraphQL type', () => {
    const unpaired = Object.keys(NAMED_SCHEMAS).filter((name) => name !== 'Error' && !records.has(name as keyof typeof NAMED_SCHEMAS));
    // A REST body with no GraphQL record: name its type as REST's (or `…Input`), or add the pair to REST_NAME_OF here.
    expect(unpaired).toEqual([]);
  });

  it.for([...records.keys()])('REST %s holds the fields of its GraphQL record, each of the same kind', (restName) => {
    const graph = records.get(restName);
    const rest = NAMED_SCHEMAS[restName] as unknown as JsonRecord;
    if (!graph) throw new Error(`no GraphQL record for ${restName}`);
    const problems: string[] = [];
    const restFields = new Set(Object.keys(rest.properties));
    for (const field of graph.fields) {
      const property = rest.properties[field.name];
      if (!property) {
        problems.push(
          `${graph.name}.${field.name} is in schema/ but not in REST's ${restName}: add it to the service's JSON schema (src/services/*/…-schema.ts), or REST ${graph.input ? 'refuses it' : 'drops it from every answer'}`,
        );
        continue;
      }
      restFields.delete(field.name);
      const wrong = disagreement(field, property, (rest.required ?? []).includes(field.name), graph.input);
      if (wrong) problems.push(`${graph.name}.${field.name} ${wrong}: make the two say the same`);
    }
    for (const name of restFields)
      problems.push(`REST's ${restName}.${name} is not in GraphQL's ${graph.name}: add the field to schema/, where the record is declared`);
    expect(problems).toEqual([]);
  });

  it('bounds every list of a record on REST (maxItems), and a @listSize(assumedSize) on it says the same number', () => {
    const listSize = schema.getDirective('listSize');
    const problems: string[] = [];
    for (const [restName, graph] of records) {
      if (graph.input) continue;
      const rest = NAMED_SCHEMAS[restName] as unknown as JsonRecord;
      for (const field of graph.fields) {
        const type = isNonNullType(field.type) ? field.type.ofType : field.type;
        if (!isListType(type) || !listSize) continue;
        const declared = field.astNode ? getDirectiveValues(listSize, field.astNode)?.assumedSize : undefined;
        const limit = rest.properties[field.name]?.maxItems;
        if (limit === undefined) problems.push(`REST's ${restName}.${field.name} has no maxItems: bound it by the service's limit`);
        // A list of leaves costs nothing however long (schema/cost.graphql) and may leave @listSize out; said, it must be true.
        else if (declared !== undefined && declared !== limit)
          problems.push(
            `${graph.name}.${field.name} is priced at @listSize(assumedSize: ${String(declared)}) and holds up to ${limit} (REST's maxItems): make them the same number`,
          );
      }
    }
    expect(problems).toEqual([]);
  });
});
