import type { Migration } from 'kysely';
import * as initial from './0001-initial.ts';
import * as ordersAndDelivery from './0002-orders-and-delivery.ts';
import * as idempotencyKeys from './0003-idempotency-keys.ts';
import * as apiKeyHashIndex from './0004-api-key-hash-index.ts';
import * as dropOrderComplete from './0005-drop-order-complete.ts';

/** Listed by hand so migrations ship inside the program, with no file-system scan at startup. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-orders-and-delivery': ordersAndDelivery,
  '0003-idempotency-keys': idempotencyKeys,
  '0004-api-key-hash-index': apiKeyHashIndex,
  '0005-drop-order-complete': dropOrderComplete,
};
