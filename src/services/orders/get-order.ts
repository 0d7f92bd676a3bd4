import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { MAX_SAFE_ID } from '../pets/pet-schema.ts';
import type { Order } from './order-schema.ts';
import { orderColumns, toOrder } from './to-order.ts';

/** Accepts a number (REST) or the decimal string a GraphQL ID carries. */
export function parseOrderId(value: number | string): number {
  const id = typeof value === 'number' ? value : /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_SAFE_ID) {
    throw new AppError('VALIDATION_FAILED', `Order id must be a positive integer no greater than ${MAX_SAFE_ID}.`);
  }
  return id;
}

/** Orders belong to the account that placed them: another account's order is "not found". */
export async function getOrder(db: Kysely<Database> | Transaction<Database>, accountId: number, orderId: number | string): Promise<Order> {
  const id = parseOrderId(orderId);
  const row = await db.selectFrom('orders').select(orderColumns).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw new AppError('ORDER_NOT_FOUND', `Order ${id} could not be found.`);
  return toOrder(row);
}
