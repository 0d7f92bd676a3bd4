import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { requestNaming } from '../../http/errors/field-naming.ts';
import { NO_STORE } from '../../http/caching/cache-control.ts';
import { noIdempotencyKey } from '../../http/idempotency/refuse-idempotency-key.ts';
import { signUp } from '../../services/accounts/index.ts';
import { errorResponses, JSON_BODY, ref, secretResponse } from '../schemas.ts';

export interface SignupRoutesOptions {
  db: Kysely<Database>;
  /** preHandler that spends one sign-up from the caller's address. */
  signupQuota: preHandlerAsyncHookHandler;
}

/** Registered only with SIGNUP=open; otherwise POST /signup is as absent as any unknown route (404). */
export const signupRoutes: FastifyPluginAsync<SignupRoutesOptions> = async (app, { db, signupQuota }) => {
  app.post(
    '/signup',
    {
      preValidation: noIdempotencyKey('POST /signup'),
      preHandler: signupQuota,
      schema: {
        operationId: 'signUp',
        summary: 'Create an account and its first key',
        description:
          'Open only where the server runs with `SIGNUP=open`. No key needed. Strictly rate-limited per client address (`RATE_LIMITED` with Retry-After). The key is shown in this answer only.',
        tags: ['accounts'],
        servers: [{ url: '/', description: 'This server (outside /v1).' }],
        security: [],
        body: ref('SignUp'),
        response: {
          201: secretResponse('SignedUp', 'The account and its first key (`apiKey.key`, shown this once).'),
          ...errorResponses(...JSON_BODY, 'ACCOUNT_NAME_TAKEN', 'RATE_LIMITED'),
        },
      },
    },
    async (request, reply) => {
      const created = await signUp(db, request.body, requestNaming('body'));
      return reply.code(201).header('Cache-Control', NO_STORE).send(created);
    },
  );
};
