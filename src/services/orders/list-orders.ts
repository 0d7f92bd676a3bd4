import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { rowCount } from '../counts/row-count.ts';
import { decodeCursor, encodeCursor } from '../pagination/cursor.ts';
import { keysetPage, PAGE_SIZE } from '../pagination/keyset-page.ts';
import type { Direction, Listing, ListingOptions, Page } from '../pagination/keyset-page.ts';
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

/** A page of orders as a query asks for it: VALIDATION_FAILED, or INVALID_CURSOR for a cursor not of this list, before anything is read. */
export function ordersListing(
  query: ListOrdersQuery,
  { naming, direction = 'forward', validated = false }: ListingOptions = {},
): Listing<OrderStatus> {
  const { limit = PAGE_SIZE.default, status, cursor } = validated ? query : validateQuery({ ...query }, naming);
  return { limit, status, cursorId: cursor === undefined ? null : decodeCursor('orders', cursor), direction };
}

/** A page's rows, read away from the cursor (or from an end), one more than shown. */
function readPage(
  db: Kysely<Database>,
  accountId: number,
  direction: Direction,
  cursorId: number | null,
  status: OrderStatus | undefined,
  rows: number,
) {
  let select = db.selectFrom('orders').select(orderColumns).where('account_id', '=', accountId);
  if (cursorId !== null) select = select.where('id', direction === 'forward' ? '>' : '<', cursorId);
  if (status !== undefined) select = select.where('status', '=', status);
  return select
    .orderBy('id', direction === 'forward' ? 'asc' : 'desc')
    .limit(rows)
    .execute();
}

/** The account's orders in ascending id order, keyset-paginated like pets, either way. */
export async function listOrders(
  db: Kysely<Database>,
  accountId: number,
  { limit, status, cursorId, direction }: Listing<OrderStatus>,
): Promise<OrderPage> {
  const rows = await readPage(db, accountId, direction, cursorId, status, limit + 1);
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

/** The account's orders, of `status` when given: one row read, however many orders there are. */
export function countOrders(db: Kysely<Database>, accountId: number, status: OrderStatus | undefined): Promise<number> {
  return rowCount(db, status === undefined ? `orders:${accountId}` : `orders:${accountId}:${status}`);
}
