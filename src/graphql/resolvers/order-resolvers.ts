import { requirePrincipal } from '../../services/api-keys/index.ts';
import {
  advanceOrder,
  anyOrdersBehind,
  cancelOrder,
  countOrders,
  getOrder,
  listOrders,
  ordersListing,
  orderCursor,
  placeOrder,
} from '../../services/orders/index.ts';
import type { Order, OrderPage } from '../../services/orders/index.ts';
import { parseId } from '../../services/validation/parse-id.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { argumentNaming } from '../argument-naming.ts';
import { expectPets, loadersOf, petOf } from '../loaders.ts';
import { connectionFields, pageRequest } from './connection.ts';
import { reading } from './reading.ts';

const ID_ARGUMENT = argumentNaming({ orderId: 'id' });

export const orderResolvers: Resolvers = {
  Query: {
    orders: reading(['orders'], async (_parent, { status, ...paging }, context) => {
      const { query, naming, direction } = pageRequest(paging);
      const page = await listOrders(
        context.db,
        requirePrincipal(context).accountId,
        ordersListing({ ...query, status: status ?? undefined }, { naming, direction }),
      );
      // Its items' pets, read in one query when the first is asked for (none when none is).
      expectPets(
        context,
        page.items.map((order) => order.petId),
      );
      return page;
    }),
    order: reading(['orders'], (_parent, { id }, context) => getOrder(context.db, requirePrincipal(context).accountId, id, ID_ARGUMENT)),
  },
  Mutation: {
    placeOrder: (_parent, { input }, context) =>
      placeOrder(context.db, requirePrincipal(context).accountId, {
        petId: parseId(input.petId, 'petId'),
        ...(input.quantity != null ? { quantity: input.quantity } : {}),
        ...(input.shipDate != null ? { shipDate: input.shipDate } : {}),
      }),
    advanceOrder: (_parent, { id, status }, context) =>
      advanceOrder(context.db, requirePrincipal(context).accountId, id, { status }, ID_ARGUMENT),
    cancelOrder: (_parent, { id }, context) => cancelOrder(context.db, requirePrincipal(context).accountId, id, ID_ARGUMENT),
  },
  Order: {
    // With its page's pets (Query.orders), else batched by the loader: one query either way.
    pet: reading(['pets'], (order, _args, context) => petOf(context, order.petId)),
  },
  CancelOrderPayload: {
    cancelledOrderId: reading([], (order) => String(order.id)),
    pet: reading(['pets'], (order, _args, context) => loadersOf(context).pet.load(order.petId)),
  },
  OrderConnection: {
    ...connectionFields<Order, OrderPage>(orderCursor, anyOrdersBehind, ['orders']),
    totalCount: reading(['orders'], (page, _args, { db }) => countOrders(db, page.accountId, page.status)),
  },
};
