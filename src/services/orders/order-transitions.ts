import { AppError } from '../../errors/index.ts';
import type { Order, OrderStatus } from './order-schema.ts';

/** Forward only, one step at a time. */
const NEXT: Record<OrderStatus, OrderStatus | null> = { placed: 'approved', approved: 'delivered', delivered: null };

/** The status an order must have to move to `target`, or a 409 that says what is possible. */
export function previousStatus(order: Order, target: OrderStatus): OrderStatus {
  const next = NEXT[order.status];
  if (next !== target) {
    throw next === null
      ? AppError.of('INVALID_ORDER_TRANSITION', 'delivered', { id: order.id })
      : AppError.of('INVALID_ORDER_TRANSITION', 'notNext', { id: order.id, status: order.status, next, target });
  }
  return order.status;
}

/** Cancelling is possible until delivery. */
export function assertCancellable(order: Order): void {
  if (order.status === 'delivered') {
    throw AppError.of('INVALID_ORDER_TRANSITION', 'notCancellable', { id: order.id });
  }
}
