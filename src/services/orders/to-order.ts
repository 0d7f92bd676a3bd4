import type { OrderRow } from '../../db/types.ts';
import type { Order } from './order-schema.ts';

export const orderColumns = ['id', 'pet_id', 'quantity', 'ship_date', 'status'] as const;

export function toOrder(row: Pick<OrderRow, (typeof orderColumns)[number]>): Order {
  return {
    id: row.id,
    petId: row.pet_id,
    quantity: row.quantity,
    shipDate: row.ship_date,
    status: row.status,
    // One fact, stored once: an order is complete when it is delivered.
    complete: row.status === 'delivered',
  };
}
