import { DatabaseError } from '../db/database-error.ts';
import { AppError } from '../errors/index.ts';

/**
 * The catalogue's error for what serving a request threw, or null when it is unexpected: an
 * AppError as it is; a database failure by its kind, busy and unavailable as 503s a client may
 * retry (with the database's words), anything else as INTERNAL_ERROR. Both faces' error
 * boundaries ask this, so a database error reads the same on REST and GraphQL.
 */
export function appErrorOf(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (!(error instanceof DatabaseError)) return null;
  if (error.kind === 'failure') return new AppError('INTERNAL_ERROR', { cause: error });
  return AppError.of('SERVICE_UNAVAILABLE', error.kind === 'busy' ? 'databaseBusy' : 'databaseUnavailable', undefined, { cause: error });
}
