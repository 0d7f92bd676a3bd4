/**
 * What a mutation's root field does to the store: `adds` a record (another call adds another),
 * `changes` one (a repeat finds it changed already), or `removes` one (a repeat finds it gone).
 * graphql/mutation-effects.ts states it for every mutation; MCP's tool hints are read from it.
 */
export type MutationEffect = 'adds' | 'changes' | 'removes';

/** Where a mutation field carries its effect. */
export const EFFECT = 'effect';

/** A mutation field's effect, as its `extensions` carry it. */
export const effectOf = (field: { extensions?: unknown }): MutationEffect | undefined =>
  (field.extensions as Record<string, MutationEffect | undefined> | undefined)?.[EFFECT];
