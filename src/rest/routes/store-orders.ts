import { requestDb } from '../../http/idempotency/idempotency-hooks.ts';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { requirePrincipal } from '../../services/api-keys/index.ts';
import {
  advanceOrder,
  cancelOrder,
  getOrder,
  listOrders,
  listOrdersQuerySchema,
  ordersListing,
  orderIdSchema,
  placeOrder,
} from '../../services/orders/index.ts';
import type { ListOrdersQuery } from '../../services/orders/index.ts';
import { requestNaming } from '../../http/errors/field-naming.ts';
import { decidedListing } from '../decided-listing.ts';
import { nextLink } from '../next-link.ts';
import type { IdempotencyHooks } from '../../http/idempotency/idempotency-hooks.ts';
import { bearerSecurity, createdResponse, errorResponses, IDEMPOTENT, JSON_BODY, KEYED, pageResponse, ref, validated } from '../schemas.ts';
import { readDb } from '../../http/read-routing.ts';

export interface StoreOrdersRoutesOptions {
  db: Kysely<Database>;
  idempotent: IdempotencyHooks;
  linkBase: string;
}

// Contract §4.5: store orders carry an experimental stability marking.
const experimental = { tags: ['store'], 'x-stability': 'experimental', security: bearerSecurity } as const;
const orderParams = { type: 'object', required: ['orderId'], properties: { orderId: orderIdSchema } } as const;

const listing = decidedListing(ordersListing);

export const storeOrdersRoutes: FastifyPluginAsync<StoreOrdersRoutesOptions> = async (app, { db, linkBase, idempotent }) => {
  // Every answer of this scope, errors included, says the API may still change.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-API-Stability', 'experimental');
    return payload;
  });

  app.get<{ Querystring: ListOrdersQuery }>(
    '/store/orders',
    {
      config: { validators: { tables: ['orders'], perAccount: true }, largeAnswers: true },
      preHandler: listing.preHandler,
      schema: {
        ...experimental,
        operationId: 'listStoreOrders',
        summary: 'List your orders (experimental)',
        querystring: listOrdersQuerySchema,
        response: {
          ...validated(pageResponse('Order', 'A page of your orders.')),
          ...errorResponses('VALIDATION_FAILED', 'INVALID_CURSOR', ...KEYED),
        },
        // Contract §4.5: the interactive test panel of this operation is disabled in the docs page.
        'x-try-it-out': false,
      },
    },
    async (request, reply) => {
      const page = await listOrders(await readDb(request, db), requirePrincipal(request).accountId, listing.of(request));
      const link = nextLink(`${linkBase}/store/orders`, request.query, page.nextCursor);
      if (link) reply.header('Link', link);
      return page.items;
    },
  );

  app.post(
    '/store/orders',
    {
      ...idempotent,
      schema: {
        ...experimental,
        operationId: 'placeStoreOrder',
        summary: 'Place an order for an available pet (experimental)',
        description: 'The pet becomes `pending`. Of two orders for one pet, exactly one succeeds; the other gets 409 PET_NOT_AVAILABLE.',
        body: ref('NewOrder'),
        response: {
          201: createdResponse('Order', 'The placed order.'),
          ...errorResponses(...JSON_BODY, ...KEYED, 'PET_NOT_FOUND', 'PET_NOT_AVAILABLE', ...IDEMPOTENT),
        },
      },
    },
    async (request, reply) => {
      const order = await placeOrder(requestDb(request, db), requirePrincipal(request).accountId, request.body);
      return reply.code(201).header('Location', `${linkBase}/store/orders/${order.id}`).send(order);
    },
  );

  app.get<{ Params: { orderId: number } }>(
    '/store/orders/:orderId',
    {
      config: { validators: { fromBody: true } },
      schema: {
        ...experimental,
        operationId: 'getStoreOrder',
        summary: 'Get one of your orders (experimental)',
        params: orderParams,
        response: {
          ...validated({ description: 'The order.', ...ref('Order') }),
          ...errorResponses('VALIDATION_FAILED', ...KEYED, 'ORDER_NOT_FOUND'),
        },
      },
    },
    async (request) =>
      getOrder(await readDb(request, db), requirePrincipal(request).accountId, request.params.orderId, requestNaming('params')),
  );

  app.patch<{ Params: { orderId: number } }>(
    '/store/orders/:orderId',
    {
      schema: {
        ...experimental,
        operationId: 'advanceStoreOrder',
        summary: 'Move an order one step forward: placed → approved → delivered (experimental)',
        description: 'Delivery completes the order and marks the pet `sold`. Backward or skipped steps are 409.',
        params: orderParams,
        body: ref('OrderStatusChange'),
        response: {
          200: { description: 'The updated order.', ...ref('Order') },
          ...errorResponses(...JSON_BODY, ...KEYED, 'ORDER_NOT_FOUND', 'INVALID_ORDER_TRANSITION'),
        },
      },
    },
    async (request) => advanceOrder(db, requirePrincipal(request).accountId, request.params.orderId, request.body),
  );

  app.delete<{ Params: { orderId: number } }>(
    '/store/orders/:orderId',
    {
      schema: {
        ...experimental,
        operationId: 'cancelStoreOrder',
        summary: 'Cancel an order before delivery (experimental)',
        description: 'The order is removed and its pet is `available` again. A delivered order is 409.',
        params: orderParams,
        response: {
          204: { description: 'Cancelled.', type: 'null' },
          ...errorResponses('VALIDATION_FAILED', ...KEYED, 'ORDER_NOT_FOUND', 'INVALID_ORDER_TRANSITION'),
        },
      },
    },
    async (request, reply) => {
      await cancelOrder(db, requirePrincipal(request).accountId, request.params.orderId);
      return reply.code(204).send();
    },
  );
};
