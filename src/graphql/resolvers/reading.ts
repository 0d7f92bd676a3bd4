import type { GraphQLField } from 'graphql';
import type { VersionedTable } from '../../services/versions/index.ts';

/**
 * What a field's resolver reads, for the response cache: the tables (`orders` and `messages`
 * mean the caller's own), or `uncacheable` for a field whose answer moves with nothing versioned
 * (a key's lastUsedAt): a query selecting it is never kept.
 */
export type Reads = readonly VersionedTable[] | 'uncacheable';

/**
 * A field's resolver with what it reads: the one place a field says it, beside the field. It
 * reaches the schema as the field's `extensions.reads` (graphql-tools copies a resolver object's
 * properties onto its field), where the response cache finds it.
 */
export function reading<F>(reads: Reads, resolve: F): { resolve: F } {
  return { resolve, extensions: { reads } } as { resolve: F };
}

/**
 * What a schema field reads: its resolver's declaration; nothing for a field without a resolver
 * of its own (a property of its parent's record); undefined for a resolver that declared nothing
 * (the cache then keeps nothing that selects it, and test/graphql/reads.test.ts fails).
 */
export function readsOf(field: GraphQLField<unknown, unknown>): Reads | undefined {
  if (field.resolve === undefined) return [];
  return (field.extensions as { reads?: Reads }).reads;
}
