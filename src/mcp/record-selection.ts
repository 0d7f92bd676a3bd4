import { getNamedType, isLeafType, isObjectType } from 'graphql';
import type { GraphQLSchema } from 'graphql';

/**
 * The fields of `typeName` that make its record: those of a scalar or enum type (or a list of
 * them) taking no arguments, the same fields REST's body of the same name holds (test/rest/
 * record-shapes.test.ts holds the two together). Relations (`Pet.orders`, `Order.pet`) are other
 * records and are left out. Read from the schema, so a field added to a type in `schema/` reaches
 * every selection built from it without a list to update.
 */
export function recordSelection(schema: GraphQLSchema, typeName: string): string {
  const type = schema.getType(typeName);
  if (!isObjectType(type)) throw new TypeError(`recordSelection: ${typeName} is no object type of the schema`);
  const fields = Object.values(type.getFields()).filter(
    (field) => !field.name.startsWith('_') && field.args.length === 0 && isLeafType(getNamedType(field.type)),
  );
  return `{ ${fields.map((field) => field.name).join(' ')} }`;
}
