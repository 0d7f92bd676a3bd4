import { requirePrincipal } from '../../services/api-keys/index.ts';
import { countOrders, getOrder, listOrders, orderCursor, placeOrder } from '../../services/orders/index.ts';
import type { Order } from '../../services/orders/index.ts';
import { parseId } from '../../services/validation/parse-id.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { argumentNaming, LIST_ARGUMENTS } from '../argument-naming.ts';
import { connectionFields } from './connection.ts';

const ID_ARGUMENT = argumentNaming({ orderId: 'id' });

export const orderResolvers: Resolvers = {
  Query: {
    orders: (_parent, { first, after, status }, context) =>
      listOrders(
        context.db,
        requirePrincipal(context).accountId,
        { limit: first, cursor: after ?? undefined, status: status ?? undefined },
        LIST_ARGUMENTS,
      ),
    order: (_parent, { id }, context) => getOrder(context.db, requirePrincipal(context).accountId, id, ID_ARGUMENT),
  },
  Mutation: {
    placeOrder: (_parent, { input }, context) =>
      placeOrder(context.db, requirePrincipal(context).accountId, {
        petId: parseId(input.petId, 'petId'),
        ...(input.quantity != null ? { quantity: input.quantity } : {}),
        ...(input.shipDate != null ? { shipDate: input.shipDate } : {}),
      }),
  },
  OrderConnection: {
    ...connectionFields<Order>(orderCursor),
    totalCount: (page, _args, { db }) => countOrders(db, page.accountId, page.status),
  },
};
