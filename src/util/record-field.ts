import { getNamedType, isLeafType } from 'graphql';
import type { GraphQLInputType, GraphQLOutputType } from 'graphql';

/**
 * Whether a GraphQL field is part of its parent's record: a scalar or enum (or a list of them)
 * taking no arguments, what REST's body of the same name holds (test/rest/record-shapes.test.ts).
 * Relations (`Pet.orders`, `Order.pet`) are other records. One rule for the GraphQL face's scopes
 * (a root field answers its record whole) and MCP's default selections.
 */
export function isRecordField(field: { name: string; args: readonly unknown[]; type: GraphQLOutputType | GraphQLInputType }): boolean {
  return !field.name.startsWith('_') && field.args.length === 0 && isLeafType(getNamedType(field.type));
}
