import { requestDb } from '../../http/idempotency/idempotency-hooks.ts';
import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { requirePrincipal } from '../../services/api-keys/index.ts';
import { getMessage, messageIdSchema, sendMessage } from '../../services/messages/index.ts';
import type { IdempotencyHooks } from '../../http/idempotency/idempotency-hooks.ts';
import { requestNaming } from '../../http/errors/field-naming.ts';
import { bearerSecurity, createdResponse, errorResponses, IDEMPOTENT, JSON_BODY, KEYED, ref, validated } from '../schemas.ts';
import { readDb } from '../../http/read-routing.ts';

// Contract §4.4: the quickstart lives on its own base address, outside /v1.
const messagesServer = [{ url: '/', description: 'The messages base address (this server, outside /v1).' }];

export interface MessagesRoutesOptions {
  db: Kysely<Database>;
  /** preHandler that spends one unit of the caller's message quota. */
  messageQuota: preHandlerAsyncHookHandler;
  idempotent: IdempotencyHooks;
}

export const messagesRoutes: FastifyPluginAsync<MessagesRoutesOptions> = async (app, { db, messageQuota, idempotent }) => {
  app.post(
    '/messages',
    {
      // A replay answers from the first preHandler and spends no quota.
      preHandler: [idempotent.preHandler, messageQuota],
      onSend: idempotent.onSend,
      schema: {
        operationId: 'sendMessage',
        summary: 'Send a message (quickstart)',
        tags: ['messages'],
        servers: messagesServer,
        security: bearerSecurity,
        body: ref('NewMessage'),
        response: {
          201: createdResponse('Message', 'Queued: accepted, and may not yet be processed.'),
          ...errorResponses(...JSON_BODY, ...KEYED, ...IDEMPOTENT),
        },
      },
    },
    async (request, reply) => {
      const message = await sendMessage(requestDb(request, db), requirePrincipal(request).accountId, request.body);
      return reply.code(201).header('Location', `/messages/${message.id}`).send(message);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/messages/:id',
    {
      config: { validators: { fromBody: true } },
      schema: {
        operationId: 'getMessage',
        summary: 'Read a message record',
        tags: ['messages'],
        servers: messagesServer,
        security: bearerSecurity,
        params: { type: 'object', required: ['id'], properties: { id: messageIdSchema } },
        response: {
          ...validated({ description: 'The message.', ...ref('Message') }),
          ...errorResponses('VALIDATION_FAILED', ...KEYED, 'MESSAGE_NOT_FOUND'),
        },
      },
    },
    async (request) =>
      getMessage(await readDb(request, db), requirePrincipal(request).accountId, request.params.id, requestNaming('params')),
  );
};
