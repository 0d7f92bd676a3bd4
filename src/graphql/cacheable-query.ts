import { getOperationAST, parse } from 'graphql';
import type { VersionedTable } from '../services/versions/index.ts';

/**
 * The tables each root query field's answer is read from, nested fields included (Pet.orders
 * reads orders, Order.pet reads pets). A root field not listed here is never cached: a field
 * added to the schema stays uncached until someone says what it reads. myKeys is left out: its
 * lastUsedAt moves without a version (the key-usage flush), and keys are not front-end reads.
 */
const READS: Readonly<Record<string, readonly VersionedTable[]>> = {
  __typename: [],
  pets: ['pets', 'orders'],
  pet: ['pets', 'orders'],
  orders: ['orders', 'pets'],
  order: ['orders', 'pets'],
  message: ['messages'],
};

/** Documents front ends send are few; a flood of distinct ones is not worth remembering. */
const REMEMBERED = 1_000;
const known = new Map<string, readonly VersionedTable[] | null>();

/**
 * The tables a query's answer depends on, or null when it may not be cached: a mutation or a
 * subscription, a document that does not parse or names no single operation, a root field not
 * in READS, or a fragment at the root (its fields are not looked into).
 */
export function cacheableReads(document: string, operationName: string | undefined): readonly VersionedTable[] | null {
  const memoKey = `${operationName ?? ''}\n${document}`;
  let reads = known.get(memoKey);
  if (reads === undefined) {
    reads = classify(document, operationName);
    if (known.size >= REMEMBERED) known.clear();
    known.set(memoKey, reads);
  }
  return reads;
}

function classify(document: string, operationName: string | undefined): readonly VersionedTable[] | null {
  let operation;
  try {
    operation = getOperationAST(parse(document), operationName);
  } catch {
    return null;
  }
  if (operation?.operation !== 'query') return null;
  const tables = new Set<VersionedTable>();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== 'Field') return null;
    const reads = READS[selection.name.value];
    if (reads === undefined) return null;
    for (const table of reads) tables.add(table);
  }
  return [...tables].sort();
}
