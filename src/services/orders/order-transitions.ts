import { AppError } from '../../errors/index.ts';
import type { Order, OrderStatus } from './order-schema.ts';

/** Forward only, one step at a time. */
const NEXT: Record<OrderStatus, OrderStatus | null> = { placed: 'approved', approved: 'delivered', delivered: null };

/** The status an order must have to move to `target`, or a 409 that says what is possible. */
export function previousStatus(order: Order, target: OrderStatus): OrderStatus {
  const next = NEXT[order.status];
  if (next !== target) {
    throw new AppError(
      'INVALID_ORDER_TRANSITION',
      next === null
        ? `Order ${order.id} is delivered; it cannot change any more.`
        : `Order ${order.id} is ${order.status}; it can move to ${next}, not ${target}.`,
    );
  }
  return order.status;
}

/** Cancelling is possible until delivery. */
export function assertCancellable(order: Order): void {
  if (order.status === 'delivered') {
    throw new AppError('INVALID_ORDER_TRANSITION', `Order ${order.id} is delivered; it can no longer be cancelled.`);
  }
}
