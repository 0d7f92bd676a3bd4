import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors/index.ts';
import { bearerSecurity, errorResponses } from '../schemas.ts';

/** Contract §4.5 names GET /store/orders and nothing more; it answers 501 until orders are designed. */
export const storeOrdersRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/store/orders',
    {
      schema: {
        operationId: 'listStoreOrders',
        summary: 'List store orders (experimental; not implemented yet)',
        tags: ['store'],
        'x-stability': 'experimental',
        security: bearerSecurity,
        response: errorResponses(401, 501),
      },
    },
    async () => {
      throw new AppError('NOT_IMPLEMENTED', 'Store orders are experimental and not implemented yet.');
    },
  );
};
