import type { Kysely } from 'kysely';
import { inTransaction } from '../../db/in-transaction.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { getOrder } from './get-order.ts';
import type { Order } from './order-schema.ts';
import { assertCancellable } from './order-transitions.ts';

/** Cancels an order before delivery: the order is removed and its pet is available again. Returns the order as it was. */
export async function cancelOrder(db: Kysely<Database>, accountId: number, orderId: number | string, naming?: FieldNaming): Promise<Order> {
  return inTransaction(db, async (trx) => {
    const order = await getOrder(trx, accountId, orderId, naming);
    assertCancellable(order);
    const removed = await trx.deleteFrom('orders').where('id', '=', order.id).where('status', '=', order.status).executeTakeFirst();
    if (removed.numDeletedRows !== 1n) throw AppError.of('INVALID_ORDER_TRANSITION', 'changedMeanwhile', { id: order.id });
    await trx.updateTable('pets').set({ status: 'available' }).where('id', '=', order.petId).execute();
    return order;
  });
}
