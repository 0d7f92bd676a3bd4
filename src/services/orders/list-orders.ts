import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { decodeCursor, encodeCursor } from '../pagination/cursor.ts';
import { keysetPage, PAGE_SIZE } from '../pagination/keyset-page.ts';
import type { Direction, Page } from '../pagination/keyset-page.ts';
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

/** The account's orders in ascending id order, keyset-paginated like pets, either way. */
export async function listOrders(
  db: Kysely<Database>,
  accountId: number,
  query: ListOrdersQuery,
  naming?: FieldNaming,
  direction: Direction = 'forward',
): Promise<OrderPage> {
  const { limit = PAGE_SIZE.default, status, cursor } = validateQuery({ ...query }, naming);
  const cursorId = cursor === undefined ? null : decodeCursor('orders', cursor);
  let select = db.selectFrom('orders').select(orderColumns).where('account_id', '=', accountId);
  if (cursorId !== null) select = select.where('id', direction === 'forward' ? '>' : '<', cursorId);
  if (status !== undefined) select = select.where('status', '=', status);
  const rows = await select
    .orderBy('id', direction === 'forward' ? 'asc' : 'desc')
    .limit(limit + 1)
    .execute();
  return { ...keysetPage(rows, limit, toOrder, orderCursor, direction, cursorId), accountId, status };
}

/** As anyPetsBehind, for the account's orders. */
export async function anyOrdersBehind(db: Kysely<Database>, page: OrderPage): Promise<boolean> {
  if (page.cursorId === null) return false;
  let select = db
    .selectFrom('orders')
    .select('id')
    .where('account_id', '=', page.accountId)
    .where('id', page.direction === 'forward' ? '<=' : '>=', page.cursorId);
  if (page.status !== undefined) select = select.where('status', '=', page.status);
  return (await select.limit(1).executeTakeFirst()) !== undefined;
}

export async function countOrders(db: Kysely<Database>, accountId: number, status: OrderStatus | undefined): Promise<number> {
  let select = db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId);
  if (status !== undefined) select = select.where('status', '=', status);
  return Number((await select.executeTakeFirstOrThrow()).count);
}
