import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors/index.ts';
import { checkDatabase } from '../../services/health/check-database.ts';
import { errorResponses } from '../schemas.ts';

const rootServer = [{ url: '/', description: 'This server, outside /v1.' }];
const statusOf = (status: string) =>
  ({ type: 'object', required: ['status'], properties: { status: { type: 'string', enum: [status] } } }) as const;

/** Probes for orchestrators; they need no key. */
export const healthRoutes: FastifyPluginAsync<{ probe: () => Promise<void> }> = async (app, { probe }) => {
  app.get(
    '/healthz',
    {
      config: { probe: true },
      schema: {
        operationId: 'healthz',
        summary: 'Alive',
        tags: ['health'],
        security: [],
        servers: rootServer,
        response: { 200: statusOf('ok') },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      config: { probe: true },
      schema: {
        operationId: 'readyz',
        summary: 'Ready: the database answers and the server is not shutting down',
        tags: ['health'],
        security: [],
        servers: rootServer,
        response: { 200: statusOf('ready'), ...errorResponses('NOT_READY') },
      },
    },
    async () => {
      if (app.draining) throw AppError.of('NOT_READY', 'shuttingDown');
      await checkDatabase(probe);
      return { status: 'ready' };
    },
  );
};
