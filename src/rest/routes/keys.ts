import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { requestNaming } from '../../http/errors/field-naming.ts';
import { NO_STORE } from '../../http/caching/cache-control.ts';
import { noIdempotencyKey } from '../../http/idempotency/refuse-idempotency-key.ts';
import {
  ACTIVE_KEYS_PER_ACCOUNT,
  createOwnKey,
  keyIdSchema,
  listOwnKeys,
  requirePrincipal,
  revokeOwnKey,
} from '../../services/api-keys/index.ts';
import { bearerSecurity, errorResponses, JSON_BODY, KEYED, ref, secretResponse } from '../schemas.ts';
import { readDb } from '../../http/read-routing.ts';

export interface KeysRoutesOptions {
  db: Kysely<Database>;
}

/** The caller's own keys: rotate without an operator. */
export const keysRoutes: FastifyPluginAsync<KeysRoutesOptions> = async (app, { db }) => {
  app.post(
    '/keys',
    {
      config: { scope: 'petstore:keys' },
      preValidation: [
        noIdempotencyKey('POST /v1/keys'),
        // The body is optional (a key needs no name): no body is taken as `{}`.
        async (request) => {
          request.body ??= {};
        },
      ],
      schema: {
        operationId: 'createKey',
        summary: 'Create another key for your account',
        description: `The answer is the only time the key is shown: it is not stored. At most ${ACTIVE_KEYS_PER_ACCOUNT} unrevoked keys per account (\`API_KEY_LIMIT_REACHED\`).`,
        tags: ['keys'],
        security: bearerSecurity,
        body: ref('NewApiKey'),
        response: {
          201: secretResponse('NewApiKeyWithSecret', 'The new key, with its secret (`key`), shown this once.'),
          ...errorResponses(...JSON_BODY, ...KEYED, 'API_KEY_LIMIT_REACHED'),
        },
      },
    },
    async (request, reply) => {
      const created = await createOwnKey(db, requirePrincipal(request), request.body, requestNaming('body'));
      return reply.code(201).header('Cache-Control', NO_STORE).send(created);
    },
  );

  app.get(
    '/keys',
    {
      config: { scope: 'petstore:keys' },
      schema: {
        operationId: 'listKeys',
        summary: 'List your keys (never their secrets)',
        tags: ['keys'],
        security: bearerSecurity,
        response: {
          200: { description: "Your account's keys, revoked ones included, oldest first.", type: 'array', items: ref('ApiKey') },
          ...errorResponses(...KEYED),
        },
      },
    },
    async (request) => listOwnKeys(await readDb(request, db), requirePrincipal(request).accountId),
  );

  app.delete<{ Params: { keyId: number } }>(
    '/keys/:keyId',
    {
      config: { scope: 'petstore:keys' },
      schema: {
        operationId: 'revokeKey',
        summary: 'Revoke one of your keys',
        description:
          "Any of your keys, the one making this request included: it is refused from the next request on, by every instance. Revoking a revoked key changes nothing. Another account's key is `API_KEY_NOT_FOUND`.",
        tags: ['keys'],
        security: bearerSecurity,
        params: { type: 'object', required: ['keyId'], properties: { keyId: keyIdSchema } },
        response: {
          200: { description: 'The key as it now is.', ...ref('ApiKey') },
          ...errorResponses('VALIDATION_FAILED', ...KEYED, 'API_KEY_NOT_FOUND'),
        },
      },
    },
    async (request) => revokeOwnKey(db, requirePrincipal(request).accountId, request.params.keyId, requestNaming('params')),
  );
};
