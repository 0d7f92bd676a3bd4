import { listQuerySchema } from '../pagination/list-query-schema.ts';
import { idSchema, timestampSchema } from '../validation/id-schema.ts';

/** The classic pet store order, forward only: placed → approved → delivered. */
export const ORDER_STATUSES = ['placed', 'approved', 'delivered'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_QUANTITY_MAX = 100;

export interface Order {
  id: number;
  petId: number;
  quantity: number;
  shipDate: string | null;
  status: OrderStatus;
  complete: boolean;
}

export interface PlaceOrderInput {
  petId: number;
  quantity?: number;
  shipDate?: string;
}

export interface AdvanceOrderInput {
  status: OrderStatus;
}

export interface ListOrdersQuery {
  limit?: number;
  status?: OrderStatus;
  cursor?: string;
}

export const orderStatusSchema = { type: 'string', enum: [...ORDER_STATUSES] } as const;

export const placeOrderSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['petId'],
  properties: {
    petId: { ...idSchema, description: 'The pet to order; it must be `available`.' },
    quantity: { type: 'integer', format: 'int32', minimum: 1, maximum: ORDER_QUANTITY_MAX, description: 'Defaults to 1.' },
    shipDate: {
      type: 'string',
      format: 'date-time',
      maxLength: 64,
      description: 'Requested ship date, RFC 3339 (stored in UTC; years 0000-9999).',
    },
  },
} as const;

export const advanceOrderSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { ...orderStatusSchema, description: 'The next status: placed → approved → delivered.' } },
} as const;

export const orderSchema = {
  type: 'object',
  required: ['id', 'petId', 'quantity', 'shipDate', 'status', 'complete'],
  properties: {
    id: { ...idSchema, description: 'Assigned on placement.' },
    petId: { ...idSchema },
    quantity: { type: 'integer', format: 'int32', minimum: 1, maximum: ORDER_QUANTITY_MAX },
    shipDate: { ...timestampSchema, type: ['string', 'null'] },
    status: orderStatusSchema,
    complete: { type: 'boolean', description: 'True once delivered.' },
  },
} as const;

export const listOrdersQuerySchema = listQuerySchema('orders', orderStatusSchema);

export const orderIdSchema = { ...idSchema, description: 'The identifier of the order.' } as const;
