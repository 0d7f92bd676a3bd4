import type { Kysely } from 'kysely';
import { inTransaction } from '../../db/in-transaction.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { createValidator } from '../validation/validator.ts';
import { getOrder } from './get-order.ts';
import { advanceOrderSchema } from './order-schema.ts';
import type { AdvanceOrderInput, Order } from './order-schema.ts';
import { previousStatus } from './order-transitions.ts';
import { orderColumns, toOrder } from './to-order.ts';

const validateInput = createValidator<AdvanceOrderInput>(advanceOrderSchema);

/**
 * Moves an order one step forward. Delivery completes the order and sells the pet.
 * The update names the status it expects, so a concurrent change makes it a 409
 * instead of a lost update.
 */
export async function advanceOrder(
  db: Kysely<Database>,
  accountId: number,
  orderId: number | string,
  input: unknown,
  naming?: FieldNaming,
): Promise<Order> {
  const { status } = validateInput(input, naming);
  return inTransaction(db, async (trx) => {
    const order = await getOrder(trx, accountId, orderId, naming);
    const from = previousStatus(order, status);
    const row = await trx
      .updateTable('orders')
      .set({ status, updated_at: new Date().toISOString() })
      .where('id', '=', order.id)
      .where('status', '=', from)
      .returning(orderColumns)
      .executeTakeFirst();
    if (!row) throw AppError.of('INVALID_ORDER_TRANSITION', 'changedMeanwhile', { id: order.id });
    if (status === 'delivered') await trx.updateTable('pets').set({ status: 'sold' }).where('id', '=', row.pet_id).execute();
    return toOrder(row);
  });
}
