import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { requestFingerprint, startIdempotent } from '../../services/idempotency/index.ts';
import type { IdempotentRun, RequestFingerprint } from '../../services/idempotency/index.ts';
import type { Principal } from '../../services/api-keys/index.ts';
import type { Exchange } from '../exchange.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while this request holds an Idempotency-Key: its work runs in `idempotency.db`. */
    idempotency: IdempotentRun | null;
  }
}

/** The database a handler works in: the request's own transaction when it holds an Idempotency-Key. */
export function requestDb(request: Pick<Exchange, 'idempotency'>, db: Kysely<Database>): Kysely<Database> {
  return request.idempotency?.db ?? db;
}

export interface IdempotencyHooks {
  preHandler: preHandlerHookHandler;
  onSend: onSendHookHandler;
}

export interface IdempotencyOptions {
  /** Whether this request is one the key applies to (GraphQL: mutations only). */
  applies?: (request: FastifyRequest) => boolean;
  /**
   * Whether a successful-looking answer is a success (GraphQL: no errors); anything else is
   * undone whole, its key free again. The request is there for a face that knows already
   * (MCP's tool call), so it need not read its own answer back.
   */
  succeeded?: (payload: string, request: FastifyRequest) => boolean;
  /**
   * Why the caller may not send this request at all (GraphQL: a scope one of its fields needs),
   * checked before a replay or a run: a kept answer never goes to a caller who could not have
   * sent the request. REST routes check their scope before this hook.
   */
  refuses?: (request: FastifyRequest, principal: Principal) => AppError | null;
  /** Where the request carries its key (default: the Idempotency-Key header; MCP: the call's `_meta` too), or why what it carries is none. */
  keyOf?: (request: FastifyRequest) => string | string[] | AppError | undefined;
  /** What is compared between a first request and a retry (default: the route and the whole body; MCP: the tool and its arguments). */
  fingerprintOf?: (request: FastifyRequest) => RequestFingerprint;
}

const headerKey = (request: FastifyRequest) => request.headers['idempotency-key'];
const routeAndBody = (request: FastifyRequest) => requestFingerprint(`${request.method} ${request.routeOptions.url}`, request.body);

/**
 * `Idempotency-Key` on a route: a retry with the same key and body gets the first answer
 * again (with `Idempotent-Replayed: true`) and changes nothing. The handler's work and the
 * kept answer commit together, just before the answer leaves, so an answer a client saw is
 * one a retry can get. Anything but a success is rolled back whole, claim included: nothing of
 * it stays (a GraphQL answer with an error, whose data is then null, stored nothing either), so
 * a retry runs as the first, and a corrected retry after a 4xx may reuse the key.
 */
export function idempotencyHooks(
  db: Kysely<Database>,
  {
    applies = () => true,
    succeeded = () => true,
    refuses = () => null,
    keyOf = headerKey,
    fingerprintOf = routeAndBody,
  }: IdempotencyOptions = {},
): IdempotencyHooks {
  async function start(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string | string[] | AppError,
    principal: Principal,
  ): Promise<boolean> {
    if (key instanceof AppError) throw key;
    if (typeof key !== 'string') throw AppError.of('VALIDATION_FAILED', 'idempotencyKeyTwice');
    const refusal = refuses(request, principal);
    if (refusal) throw refusal;
    const fingerprint = fingerprintOf(request);
    const started = await startIdempotent(db, principal.accountId, key, fingerprint);
    if (started.kind === 'replay') {
      const { status, body, resourcePath } = started.result;
      if (resourcePath) reply.header('Location', resourcePath);
      reply.code(status).header('Idempotent-Replayed', 'true').type('application/json; charset=utf-8').send(body);
      return false;
    }
    const { run } = started;
    request.idempotency = run;
    // However the exchange ends (the client gone, an error before onSend), the transaction never outlives it.
    reply.raw.once('close', () => {
      if (run.open) run.abort().catch((error: unknown) => request.log.error({ err: error }, 'idempotent request: rollback failed'));
    });
    return true;
  }

  async function settle(request: FastifyRequest, run: IdempotentRun, reply: FastifyReply, payload: unknown): Promise<void> {
    const success = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string' && succeeded(payload, request);
    // A rollback that fails leaves nothing to undo (its connection is gone, and the database
    // rolled the transaction back with it): the answer already being sent (an error) stands.
    if (!success) {
      return run.abort().catch((error: unknown) => request.log.warn({ err: error }, 'idempotent request: rollback failed'));
    }
    const location = reply.getHeader('location');
    try {
      await run.finish({ status: reply.statusCode, body: payload, resourcePath: typeof location === 'string' ? location : null });
    } catch (error) {
      // Not stored: the error's answer names no resource.
      reply.removeHeader('location');
      throw error;
    }
  }

  // Callback-style hooks, so a request without a key (nearly all) passes without a promise.
  return {
    preHandler(request, reply, done) {
      const key = keyOf(request);
      const { principal } = request;
      if (key === undefined || !principal || !applies(request)) return done();
      // A replay has been sent: the handler must not run, so done is not called.
      start(request, reply, key, principal).then((proceed) => proceed && done(), done);
    },
    onSend(request, reply, payload, done) {
      const run = request.idempotency;
      if (!run?.open) return done(null, payload);
      settle(request, run, reply, payload).then(() => done(null, payload), done);
    },
  };
}
