import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Order } from './order-schema.ts';
import { orderColumns, toOrder } from './to-order.ts';

/**
 * Many of the account's orders in one query, by id: what a batch of references (a gateway's
 * entities) needs. Ids not found, or another account's, are absent from the map.
 */
export async function getOrders(db: Kysely<Database>, accountId: number, ids: readonly number[]): Promise<Map<number, Order>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('orders')
    .select(orderColumns)
    .where('account_id', '=', accountId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, toOrder(row)]));
}
