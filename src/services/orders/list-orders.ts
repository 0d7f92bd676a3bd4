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
import { toPet } from '../pets/to-pet.ts';
import type { Pet } from '../pets/pet-schema.ts';

export interface OrderPage extends Page<Order> {
  accountId: number;
  status: OrderStatus | undefined;
  /** The page's pets by id, when asked for with `withPets`: read in the same query, joined. */
  pets?: ReadonlyMap<number, Pet>;
}

export interface ListOrdersOptions {
  naming?: FieldNaming;
  direction?: Direction;
  /** Read each order's pet in the same query (a page of orders shown with their pets). */
  withPets?: boolean;
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
  { naming, direction = 'forward', withPets = false }: ListOrdersOptions = {},
): Promise<OrderPage> {
  const { limit = PAGE_SIZE.default, status, cursor } = validateQuery({ ...query }, naming);
  const cursorId = cursor === undefined ? null : decodeCursor('orders', cursor);
  let select = db
    .selectFrom('orders')
    .select(orderColumns.map((column) => `orders.${column}` as const))
    .where('orders.account_id', '=', accountId);
  if (cursorId !== null) select = select.where('orders.id', direction === 'forward' ? '>' : '<', cursorId);
  if (status !== undefined) select = select.where('orders.status', '=', status);
  select = select.orderBy('orders.id', direction === 'forward' ? 'asc' : 'desc').limit(limit + 1);
  const at = { accountId, status };
  if (!withPets) return { ...keysetPage(await select.execute(), limit, toOrder, orderCursor, direction, cursorId), ...at };
  // Joined rather than a second query by id: one statement, and no list of a hundred parameters to bind.
  const rows = await select
    .leftJoin('pets', 'pets.id', 'orders.pet_id')
    .select(['pets.name as pet_name', 'pets.category_id as pet_category_id', 'pets.status as pet_status'])
    .execute();
  const pets = new Map<number, Pet>();
  for (const { pet_id: id, pet_name: name, pet_category_id: categoryId, pet_status: petStatus } of rows) {
    // Never null while orders keep their pets (a foreign key); were one gone, Order.pet would say so as before.
    if (name !== null && categoryId !== null && petStatus !== null)
      pets.set(id, toPet({ id, name, category_id: categoryId, status: petStatus }));
  }
  return { ...keysetPage(rows, limit, toOrder, orderCursor, direction, cursorId), ...at, pets };
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
