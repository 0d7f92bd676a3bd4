import { advanceOrder as advance } from './advance-order.ts';
import { cancelOrder as cancel } from './cancel-order.ts';
import { getOrder as get } from './get-order.ts';
import { getOrders as getMany } from './get-orders.ts';
import { countOrders as count, listOrders as list } from './list-orders.ts';
import { ordersOfPets as ofPets } from './orders-of-pets.ts';
import { placeOrder as place } from './place-order.ts';
import { traced } from '../../telemetry/spans.ts';

export const { placeOrder, getOrder, getOrders, advanceOrder, cancelOrder, listOrders, countOrders, ordersOfPets } = traced('orders', {
  placeOrder: place,
  getOrder: get,
  getOrders: getMany,
  advanceOrder: advance,
  cancelOrder: cancel,
  listOrders: list,
  countOrders: count,
  ordersOfPets: ofPets,
});
export { orderCursor, anyOrdersBehind, ordersListing } from './list-orders.ts';
export type { OrderPage } from './list-orders.ts';
export * from './order-schema.ts';
