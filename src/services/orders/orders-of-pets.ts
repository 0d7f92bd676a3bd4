import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Order } from './order-schema.ts';
import { orderColumns, toOrder } from './to-order.ts';

/**
 * The account's orders of each of `petIds`, oldest first, in one query: other accounts' orders
 * are never seen, as everywhere. Every asked id has an entry, [] when the account has none.
 */
export async function ordersOfPets(db: Kysely<Database>, accountId: number, petIds: readonly number[]): Promise<Map<number, Order[]>> {
  const byPet = new Map<number, Order[]>(petIds.map((id) => [id, []]));
  if (petIds.length === 0) return byPet;
  const rows = await db
    .selectFrom('orders')
    .select(orderColumns)
    .where('account_id', '=', accountId)
    .where('pet_id', 'in', [...byPet.keys()])
    .orderBy('id')
    .execute();
  for (const row of rows) byPet.get(row.pet_id)?.push(toOrder(row));
  return byPet;
}
