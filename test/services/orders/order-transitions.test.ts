import { describe, expect, it } from 'vitest';
import type { Order, OrderStatus } from '../../../src/services/orders/index.ts';
import { assertCancellable, previousStatus } from '../../../src/services/orders/order-transitions.ts';

const order = (status: OrderStatus): Order => ({ id: 7, petId: 1, quantity: 1, shipDate: null, status, complete: status === 'delivered' });
const refusal = (run: () => unknown) => {
  try {
    run();
    return null;
  } catch (error) {
    return error as { code: string; message: string };
  }
};

describe('order transitions', () => {
  it('move one step forward: placed → approved → delivered', () => {
    expect(previousStatus(order('placed'), 'approved')).toBe('placed');
    expect(previousStatus(order('approved'), 'delivered')).toBe('approved');
  });

  it.each([
    ['placed', 'delivered', 'Order 7 is placed; it can move to approved, not delivered.'],
    ['placed', 'placed', 'Order 7 is placed; it can move to approved, not placed.'],
    ['approved', 'placed', 'Order 7 is approved; it can move to delivered, not placed.'],
    ['delivered', 'approved', 'Order 7 is delivered; it cannot change any more.'],
  ] as const)('refuse %s → %s, saying what is possible', (from, to, words) => {
    expect(refusal(() => previousStatus(order(from), to))).toMatchObject({ code: 'INVALID_ORDER_TRANSITION', message: words });
  });

  it('allow cancelling until delivery', () => {
    expect(refusal(() => assertCancellable(order('placed')))).toBeNull();
    expect(refusal(() => assertCancellable(order('approved')))).toBeNull();
    expect(refusal(() => assertCancellable(order('delivered')))).toMatchObject({ code: 'INVALID_ORDER_TRANSITION' });
  });
});
