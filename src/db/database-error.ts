import { AppError } from '../errors/index.ts';

export type DatabaseErrorKind = 'unique_violation' | 'constraint_violation' | 'busy' | 'failure';

/**
 * What a failed query becomes before it leaves src/db: a dialect-neutral kind for
 * the services to branch on, and an AppError whose message is safe to show (the SQL,
 * file paths and driver text stay in `cause`, for the log).
 */
export class DatabaseError extends AppError {
  readonly kind: DatabaseErrorKind;

  constructor(kind: DatabaseErrorKind, cause: unknown) {
    super(kind === 'busy' ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR', undefined, { cause });
    this.name = 'DatabaseError';
    this.kind = kind;
  }
}

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof DatabaseError && error.kind === 'unique_violation';
}
