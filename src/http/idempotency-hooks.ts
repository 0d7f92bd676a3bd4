import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { AppError } from '../errors/index.ts';
import { abandonIdempotent, finishIdempotent, requestFingerprint, startIdempotent } from '../services/idempotency/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while this request holds an Idempotency-Key. */
    idempotency: { accountId: number; key: string } | null;
  }
}

export interface IdempotencyHooks {
  preHandler: preHandlerAsyncHookHandler;
  onSend: onSendHookHandler;
}

export interface IdempotencyOptions {
  /** Whether this request is one the key applies to (GraphQL: mutations only). */
  applies?: (request: FastifyRequest) => boolean;
  /** Whether a successful-looking answer is really a success worth replaying (GraphQL: no errors). */
  succeeded?: (payload: string) => boolean;
}

/**
 * `Idempotency-Key` on a route: a retry with the same key and body gets the first
 * answer again (with `Idempotent-Replayed: true`) and changes nothing. Only successes
 * are kept, so a corrected retry after a 4xx may reuse the key.
 */
export function idempotencyHooks(
  db: Kysely<Database>,
  { applies = () => true, succeeded = () => true }: IdempotencyOptions = {},
): IdempotencyHooks {
  return {
    async preHandler(request: FastifyRequest, reply: FastifyReply) {
      const key = request.headers['idempotency-key'];
      if (key === undefined || !request.principal || !applies(request)) return;
      if (typeof key !== 'string') throw new AppError('VALIDATION_FAILED', 'Send one Idempotency-Key header.');
      const { accountId } = request.principal;
      const fingerprint = requestFingerprint(`${request.method} ${request.routeOptions.url}`, request.body);
      const start = await startIdempotent(db, accountId, key, fingerprint);
      if (start.kind === 'replay') {
        const { status, body, resourcePath } = start.result;
        if (resourcePath) reply.header('Location', resourcePath);
        return reply.code(status).header('Idempotent-Replayed', 'true').type('application/json; charset=utf-8').send(body);
      }
      request.idempotency = { accountId, key };
    },
    async onSend(request, reply, payload) {
      const held = request.idempotency;
      if (!held) return payload;
      request.idempotency = null;
      const ok = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string' && succeeded(payload);
      if (ok) {
        const location = reply.getHeader('location');
        await finishIdempotent(db, held.accountId, held.key, {
          status: reply.statusCode,
          body: payload,
          resourcePath: typeof location === 'string' ? location : null,
        });
      } else {
        await abandonIdempotent(db, held.accountId, held.key);
      }
      return payload;
    },
  };
}
