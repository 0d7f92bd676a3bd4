import type { Kysely } from 'kysely';
import { idInOrder } from '../../db/engine.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { normaliseDateTime } from '../validation/date-time.ts';
import { createValidator } from '../validation/validator.ts';
import { placeOrderSchema } from './order-schema.ts';
import type { Order, PlaceOrderInput } from './order-schema.ts';
import { orderColumns, toOrder } from './to-order.ts';

const validateInput = createValidator<PlaceOrderInput>(placeOrderSchema);

/**
 * Orders an available pet and makes it pending, in one transaction. The first statement
 * is the conditional pet update, so of two orders for one pet exactly one wins, in one
 * process or across several on the same database.
 */
export async function placeOrder(db: Kysely<Database>, accountId: number, input: unknown): Promise<Order> {
  const { petId, quantity = 1, shipDate } = validateInput(input);
  const now = new Date().toISOString();
  return inTransaction(db, async (trx) => {
    const taken = await trx
      .updateTable('pets')
      .set({ status: 'pending' })
      .where('id', '=', petId)
      .where('status', '=', 'available')
      .executeTakeFirst();
    if (taken.numUpdatedRows !== 1n) {
      const pet = await trx.selectFrom('pets').select('status').where('id', '=', petId).executeTakeFirst();
      if (!pet) throw AppError.of('PET_NOT_FOUND', 'byId', { id: petId });
      throw AppError.of('PET_NOT_AVAILABLE', 'notAvailable', { id: petId, status: pet.status });
    }
    const row = await trx
      .insertInto('orders')
      .values({
        // Seen in id order, so a reader paging through never skips one (db/engine.ts).
        id: idInOrder(trx, 'orders'),
        account_id: accountId,
        pet_id: petId,
        quantity,
        ship_date: shipDate === undefined ? null : normaliseDateTime(shipDate),
        status: 'placed',
        created_at: now,
        updated_at: now,
      })
      .returning(orderColumns)
      .executeTakeFirstOrThrow();
    return toOrder(row);
  });
}
