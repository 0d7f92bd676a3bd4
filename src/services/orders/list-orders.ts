import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { decodeCursor, encodeCursor } from '../pagination/cursor.ts';
import { keysetPage, PAGE_SIZE } from '../pagination/keyset-page.ts';
import type { Page } from '../pagination/keyset-page.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { createValidator } from '../validation/validator.ts';
import { listOrdersQuerySchema } from './order-schema.ts';
import type { ListOrdersQuery, Order, OrderStatus } from './order-schema.ts';
import { orderColumns, toOrder } from './to-order.ts';

export interface OrderPage extends Page<Order> {
  accountId: number;
  status: OrderStatus | undefined;
}

const validateQuery = createValidator<ListOrdersQuery>(listOrdersQuerySchema);

export function orderCursor(order: Pick<Order, 'id'>): string {
  return encodeCursor('orders', order.id);
}

/** The account's orders in ascending id order, keyset-paginated like pets. */
export async function listOrders(
  db: Kysely<Database>,
  accountId: number,
  query: ListOrdersQuery,
  naming?: FieldNaming,
): Promise<OrderPage> {
  const { limit = PAGE_SIZE.default, status, cursor } = validateQuery({ ...query }, naming);
  const afterId = cursor === undefined ? 0 : decodeCursor('orders', cursor);
  let select = db.selectFrom('orders').select(orderColumns).where('account_id', '=', accountId).where('id', '>', afterId);
  if (status !== undefined) select = select.where('status', '=', status);
  const rows = await select
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  return { ...keysetPage(rows, limit, toOrder, orderCursor), accountId, status };
}

export async function countOrders(db: Kysely<Database>, accountId: number, status: OrderStatus | undefined): Promise<number> {
  let select = db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId);
  if (status !== undefined) select = select.where('status', '=', status);
  return Number((await select.executeTakeFirstOrThrow()).count);
}
