import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { parseId } from '../validation/parse-id.ts';
import type { Order } from './order-schema.ts';
import { orderColumns, toOrder } from './to-order.ts';

/** Orders belong to the account that placed them: another account's order is "not found". */
export async function getOrder(
  db: Kysely<Database> | Transaction<Database>,
  accountId: number,
  orderId: number | string,
  naming?: FieldNaming,
): Promise<Order> {
  const id = parseId(orderId, 'orderId', naming);
  const row = await db
    .selectFrom('orders')
    .select(orderColumns)
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw AppError.of('ORDER_NOT_FOUND', 'byId', { id });
  return toOrder(row);
}
