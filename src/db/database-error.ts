/**
 * A constraint the data breaks is no kind of its own: the services check what a client can get
 * wrong before writing (or write with `on conflict`), so one that still fails is a failure.
 * - busy: the database is there but could not serve in time (lock, deadlock, statement timeout, full pool);
 * - unavailable: the database cannot be reached or is shutting down;
 * - failure: anything else.
 */
export type DatabaseErrorKind = 'busy' | 'unavailable' | 'failure';

/**
 * What a failed query becomes before it leaves src/db: a dialect-neutral kind for the caller to
 * branch on (the SQL, file paths, hosts and driver text stay in `cause`, for the log). It names
 * no HTTP status and no words for clients: src/services/app-error-of.ts maps it to the error
 * catalogue, once, for both faces (busy and unavailable answer 503 with Retry-After).
 */
export class DatabaseError extends Error {
  readonly kind: DatabaseErrorKind;

  constructor(kind: DatabaseErrorKind, cause: unknown) {
    super(`database ${kind}`, { cause });
    this.name = 'DatabaseError';
    this.kind = kind;
  }
}

/**
 * What a person starting the server or running a command is told of an error: its message and,
 * for a DatabaseError, the driver's words and code under it ("database failure" alone names no
 * cause). Driver messages never hold a connection's password.
 */
export function explainError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof DatabaseError) || !(error.cause instanceof Error)) return message;
  const code = 'code' in error.cause && typeof error.cause.code === 'string' ? ` (${error.cause.code})` : '';
  return `${message}: ${error.cause.message}${code}`;
}
