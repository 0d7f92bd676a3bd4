import type { GraphQLSchema } from 'graphql';
import { EFFECT } from '../util/mutation-effect.ts';
import type { MutationEffect } from '../util/mutation-effect.ts';

/**
 * What each mutation does to the store (util/mutation-effect.ts). An MCP tool's hints follow from
 * it: destructive unless it only adds, idempotent unless it adds. Placing an order adds one (its pet
 * turns pending, which cancelling undoes); advancing one changes it (a repeat is refused: no
 * further effect), delivery selling the pet; revoking a key removes what the key could do.
 */
export const MUTATION_EFFECTS: Readonly<Record<string, MutationEffect>> = {
  createPet: 'adds',
  sendMessage: 'adds',
  placeOrder: 'adds',
  advanceOrder: 'changes',
  cancelOrder: 'removes',
  createKey: 'adds',
  revokeKey: 'removes',
};

/** Puts each mutation's effect in its `extensions`; a mutation missing from the table is refused, so a new one cannot go unstated. */
export function withMutationEffects(schema: GraphQLSchema): GraphQLSchema {
  const fields = Object.values(schema.getMutationType()?.getFields() ?? {});
  const missing = fields.filter((field) => !MUTATION_EFFECTS[field.name]).map((field) => field.name);
  if (missing.length > 0) throw new Error(`mutation-effects.ts states no effect for Mutation.${missing.join(', Mutation.')}.`);
  for (const field of fields) field.extensions = { ...field.extensions, [EFFECT]: MUTATION_EFFECTS[field.name] };
  return schema;
}
