import { getOperationAST } from 'graphql';
import type { DocumentNode } from 'graphql';
import type { VersionedTable } from '../services/versions/index.ts';
import { perOperation } from './per-operation.ts';
import { rootFields } from './root-fields.ts';

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

/**
 * The tables a query's answer depends on, or null when it may not be cached: a mutation or a
 * subscription, a document that names no single operation, or a root field (through fragments
 * too) not in READS. Remembered per parsed document and operation name.
 */
export const cacheableReads: (document: DocumentNode, operationName: string | undefined) => readonly VersionedTable[] | null = perOperation(
  (document, operationName) => {
    if (getOperationAST(document, operationName)?.operation !== 'query') return null;
    const tables = new Set<VersionedTable>();
    // Every field written, @skip and @include aside: the stricter set.
    for (const field of rootFields(document, operationName)) {
      const reads = READS[field];
      if (reads === undefined) return null;
      for (const table of reads) tables.add(table);
    }
    return [...tables].sort();
  },
);
