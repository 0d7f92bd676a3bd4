export { placeOrder } from './place-order.ts';
export { getOrder } from './get-order.ts';
export { advanceOrder } from './advance-order.ts';
export { cancelOrder } from './cancel-order.ts';
export { listOrders, countOrders, orderCursor, anyOrdersBehind } from './list-orders.ts';
export type { OrderPage, OrderWithPet } from './list-orders.ts';
export * from './order-schema.ts';
export { ordersOfPets } from './orders-of-pets.ts';
