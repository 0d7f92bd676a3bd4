import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors/index.ts';

/**
 * For answers that carry a secret: a replay would have to store it, so these routes refuse an
 * Idempotency-Key rather than ignore it and let a client believe a retry is safe.
 */
export function refuseIdempotencyKey(what: string): AppError {
  return AppError.of('VALIDATION_FAILED', 'idempotencyKeyRefused', { operation: what });
}

/** preValidation hook: the route answers 400 to a request that sends Idempotency-Key. */
export function noIdempotencyKey(what: string): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    if (request.headers['idempotency-key'] !== undefined) throw refuseIdempotencyKey(what);
  };
}
