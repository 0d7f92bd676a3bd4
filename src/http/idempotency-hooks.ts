import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { AppError } from '../errors/index.ts';
import { requestFingerprint, startIdempotent } from '../services/idempotency/index.ts';
import type { IdempotentRun } from '../services/idempotency/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while this request holds an Idempotency-Key: its work runs in `idempotency.db`. */
    idempotency: IdempotentRun | null;
  }
}

/** The database a handler works in: the request's own transaction when it holds an Idempotency-Key. */
export function requestDb(request: FastifyRequest, db: Kysely<Database>): Kysely<Database> {
  return request.idempotency?.db ?? db;
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
 * `Idempotency-Key` on a route: a retry with the same key and body gets the first answer
 * again (with `Idempotent-Replayed: true`) and changes nothing. The handler's work and the
 * kept answer commit together, just before the answer leaves, so an answer a client saw is
 * one a retry can get. Only successes are kept, so a corrected retry after a 4xx may reuse
 * the key.
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
      const fingerprint = requestFingerprint(`${request.method} ${request.routeOptions.url}`, request.body);
      const start = await startIdempotent(db, request.principal.accountId, key, fingerprint);
      if (start.kind === 'replay') {
        const { status, body, resourcePath } = start.result;
        if (resourcePath) reply.header('Location', resourcePath);
        return reply.code(status).header('Idempotent-Replayed', 'true').type('application/json; charset=utf-8').send(body);
      }
      const { run } = start;
      request.idempotency = run;
      // However the exchange ends (the client gone, an error before onSend), the transaction never outlives it.
      reply.raw.once('close', () => {
        if (run.open) run.abort().catch((error: unknown) => request.log.error({ err: error }, 'idempotent request: rollback failed'));
      });
    },
    async onSend(request, reply, payload) {
      const run = request.idempotency;
      if (!run?.open) return payload;
      const success = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string';
      if (!success) {
        await run.abort();
      } else if (succeeded(payload)) {
        const location = reply.getHeader('location');
        await run.finish({ status: reply.statusCode, body: payload, resourcePath: typeof location === 'string' ? location : null });
      } else {
        await run.release();
      }
      return payload;
    },
  };
}
