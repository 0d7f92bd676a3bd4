import type { Kysely, SelectQueryBuilder } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/types.ts';
import { rowCount } from '../counts/row-count.ts';
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

/** An order of a page, with its pet when the page was read `withPets` (joined, in the same query). */
export interface OrderWithPet extends Order {
  pet?: Pet;
}

export interface OrderPage extends Page<OrderWithPet> {
  accountId: number;
  status: OrderStatus | undefined;
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

/** Refuses (INVALID_CURSOR) a cursor that is not one of this list's, before anything is read. */
export function checkOrderCursor(cursor: string | undefined): void {
  if (cursor !== undefined) decodeCursor('orders', cursor);
}

const COLUMNS = orderColumns.map((column) => `orders.${column}` as const);

function pageRead(db: Kysely<Database>, accountId: number, direction: Direction, cursorId: number | null, status: OrderStatus | undefined) {
  let select = db.selectFrom('orders').select(COLUMNS).where('orders.account_id', '=', accountId);
  if (cursorId !== null) select = select.where('orders.id', direction === 'forward' ? '>' : '<', cursorId);
  if (status !== undefined) select = select.where('orders.status', '=', status);
  return select.orderBy('orders.id', direction === 'forward' ? 'asc' : 'desc');
}

// Joined rather than a second query by id: one statement, and no list of a hundred parameters to bind.
function joinPets<O>(select: SelectQueryBuilder<Database, 'orders', O>) {
  return select
    .leftJoin('pets', 'pets.id', 'orders.pet_id')
    .select(['pets.name as pet_name', 'pets.category_id as pet_category_id', 'pets.status as pet_status']);
}

// Forward pages, the common read, are built once per database (as the pets list is); backward ones
// per call. One builder per shape, written out: a prepared query must not branch on its arguments.
const forward = (db: Kysely<Database>, accountId: number, afterId: number, rows: number) =>
  db
    .selectFrom('orders')
    .select(COLUMNS)
    .where('orders.account_id', '=', accountId)
    .where('orders.id', '>', afterId)
    .orderBy('orders.id', 'asc')
    .limit(rows);
const forwardByStatus = (db: Kysely<Database>, accountId: number, afterId: number, rows: number, status: OrderStatus) =>
  forward(db, accountId, afterId, rows).where('orders.status', '=', status);
const read = {
  bare: { all: preparedQuery(forward), byStatus: preparedQuery(forwardByStatus) },
  withPets: {
    all: preparedQuery((db: Kysely<Database>, accountId: number, afterId: number, rows: number) =>
      joinPets(forward(db, accountId, afterId, rows)),
    ),
    byStatus: preparedQuery((db: Kysely<Database>, accountId: number, afterId: number, rows: number, status: OrderStatus) =>
      joinPets(forwardByStatus(db, accountId, afterId, rows, status)),
    ),
  },
};

interface PetColumns {
  pet_id: number;
  pet_name: string | null;
  pet_category_id: number | null;
  pet_status: Pet['status'] | null;
}

function toOrderWithPet(row: Parameters<typeof toOrder>[0] & PetColumns): OrderWithPet {
  const order: OrderWithPet = toOrder(row);
  const { pet_id: id, pet_name: name, pet_category_id: categoryId, pet_status: petStatus } = row;
  // Never null while orders keep their pets (a foreign key); were one gone, Order.pet would say so as before.
  if (name !== null && categoryId !== null && petStatus !== null)
    order.pet = toPet({ id, name, category_id: categoryId, status: petStatus });
  return order;
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
  const at = { accountId, status };
  const page = <Row extends Parameters<typeof toOrder>[0]>(rows: Row[]) =>
    keysetPage(rows, limit, toOrder, orderCursor, direction, cursorId);
  const pageWithPets = (rows: (Parameters<typeof toOrder>[0] & PetColumns)[]) =>
    keysetPage(rows, limit, toOrderWithPet, orderCursor, direction, cursorId);
  if (direction === 'backward') {
    const select = pageRead(db, accountId, direction, cursorId, status).limit(limit + 1);
    if (!withPets) return { ...page(await select.execute()), ...at };
    return { ...pageWithPets(await joinPets(select).execute()), ...at };
  }
  const args = [db, accountId, cursorId ?? 0, limit + 1] as const;
  if (!withPets) {
    const rows = status === undefined ? await read.bare.all(...args) : await read.bare.byStatus(...args, status);
    return { ...page(rows), ...at };
  }
  const rows = status === undefined ? await read.withPets.all(...args) : await read.withPets.byStatus(...args, status);
  return { ...pageWithPets(rows), ...at };
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
