import { isInputObjectType, isObjectType } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { keyIdSchema, newApiKeySchema } from '../services/api-keys/index.ts';
import { messageIdSchema, sendMessageSchema } from '../services/messages/index.ts';
import { advanceOrderSchema, listOrdersQuerySchema, orderIdSchema, placeOrderSchema } from '../services/orders/index.ts';
import { listPetsQuerySchema, newPetSchema, petIdSchema } from '../services/pets/index.ts';
import { idArgumentSchema } from '../services/validation/id-argument-schema.ts';
import { standardSchema } from '../services/validation/standard-schema.ts';
import { ACCEPTS, orNull } from '../util/json-schema.ts';
import type { JsonSchema } from '../util/json-schema.ts';

/** The services' list query, as Relay's four arguments and a status filter take it (resolvers/connection.ts). */
function pagingArguments(query: { properties: { limit: JsonSchema; cursor: JsonSchema; status: JsonSchema } }, field: string) {
  const { default: _absent, ...limit } = standardSchema(query.properties.limit);
  const cursor = orNull(standardSchema(query.properties.cursor));
  return {
    // An explicit null is refused, as REST refuses `limit=`; absent, the page is 20 long.
    [`${field}(first:)`]: { ...limit, default: query.properties.limit.default },
    [`${field}(after:)`]: cursor,
    [`${field}(last:)`]: limit,
    [`${field}(before:)`]: cursor,
    [`${field}(status:)`]: orNull(standardSchema(query.properties.status)),
  };
}

/**
 * What the API accepts at each argument and input field of its operations, by schema coordinate:
 * the services' own schemas, the ones they validate with (and REST's routes too), restated in
 * JSON Schema's standard words, null included where the resolver takes null as "not given".
 * GraphQL's types say less (`first: Int` is any 32-bit integer; the API takes 1-100), so an MCP
 * tool's input schema is built from these (test/mcp/accepted-values.test.ts checks every
 * tool's schema against what the API answers). Every argument and input field must be here:
 * `withAcceptedValues` refuses a schema with one missing, so a new argument cannot go unstated.
 */
export const ACCEPTED_VALUES: Readonly<Record<string, JsonSchema>> = {
  ...pagingArguments(listPetsQuerySchema, 'Query.pets'),
  'Query.pet(id:)': idArgumentSchema(petIdSchema.description),
  ...pagingArguments(listOrdersQuerySchema, 'Query.orders'),
  'Query.order(id:)': idArgumentSchema(orderIdSchema.description),
  'Query.message(id:)': standardSchema(messageIdSchema),

  'Mutation.createPet(input:)': { type: 'object' },
  'NewPetInput.name': standardSchema(newPetSchema.properties.name),
  'NewPetInput.categoryId': standardSchema(newPetSchema.properties.categoryId),
  'NewPetInput.status': standardSchema(newPetSchema.properties.status),
  'Mutation.sendMessage(message:)': standardSchema(sendMessageSchema.properties.message),
  'Mutation.placeOrder(input:)': { type: 'object' },
  'PlaceOrderInput.petId': idArgumentSchema(placeOrderSchema.properties.petId.description),
  'PlaceOrderInput.quantity': orNull({ ...standardSchema(placeOrderSchema.properties.quantity), default: 1 }),
  'PlaceOrderInput.shipDate': orNull(standardSchema(placeOrderSchema.properties.shipDate)),
  'Mutation.advanceOrder(id:)': idArgumentSchema(orderIdSchema.description),
  'Mutation.advanceOrder(status:)': standardSchema(advanceOrderSchema.properties.status),
  'Mutation.cancelOrder(id:)': idArgumentSchema(orderIdSchema.description),
  'Mutation.createKey(input:)': orNull({ type: 'object' }),
  'NewApiKeyInput.name': orNull(standardSchema(newApiKeySchema.properties.name)),
  'NewApiKeyInput.scopes': orNull(standardSchema(newApiKeySchema.properties.scopes)),
  'Mutation.revokeKey(id:)': idArgumentSchema(keyIdSchema.description),

  'Subscription.messageUpdated(id:)': standardSchema(messageIdSchema),
  'Subscription.petCreated(status:)': orNull(standardSchema(listPetsQuerySchema.properties.status)),
};

/**
 * Puts each argument's and input field's accepted values (ACCEPTED_VALUES) in its `extensions`
 * (util/json-schema.ts's `ACCEPTS`), where the faces that describe the API read them, as scopes.ts puts a field's
 * scope. An input object's own entry says only whether it may be null; its fields say the rest.
 * Federation's own fields (`_entities`, `_service`) are not the API's and are left out.
 */
export function withAcceptedValues(schema: GraphQLSchema): GraphQLSchema {
  const missing: string[] = [];
  const stamp = (target: { extensions: unknown }, coordinate: string) => {
    const accepts = ACCEPTED_VALUES[coordinate];
    if (!accepts) missing.push(coordinate);
    else target.extensions = { ...(target.extensions as object), [ACCEPTS]: accepts };
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('_')) continue;
    if (isObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (field.name.startsWith('_')) continue;
        for (const argument of field.args) stamp(argument as { extensions: unknown }, `${type.name}.${field.name}(${argument.name}:)`);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) stamp(field as { extensions: unknown }, `${type.name}.${field.name}`);
    }
  }
  if (missing.length > 0) throw new Error(`accepted-values.ts states no accepted values for ${missing.join(', ')}.`);
  return schema;
}
