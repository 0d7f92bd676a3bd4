import { isObjectType } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { isRecordField } from '../util/record-field.ts';

/**
 * The fields of `typeName` that make its record (util/record-field.ts), as a selection: the
 * same fields REST's body of the same name holds. Read from the schema, so a field added to a
 * type in `schema/` reaches every selection built from it without a list to update.
 */
export function recordSelection(schema: GraphQLSchema, typeName: string): string {
  const type = schema.getType(typeName);
  if (!isObjectType(type)) throw new TypeError(`recordSelection: ${typeName} is no object type of the schema`);
  return `{ ${Object.values(type.getFields())
    .filter(isRecordField)
    .map((field) => field.name)
    .join(' ')} }`;
}
