import type { DatabaseErrorKind } from '../database-error.ts';

// SQLSTATE classes and codes, from PostgreSQL's errcodes table.
const BUSY = new Set([
  '55P03', // lock_not_available: lock_timeout passed
  '40P01', // deadlock_detected
  '40001', // serialization_failure
  '57014', // query_canceled: statement_timeout passed
  '53300', // too_many_connections
]);
// admin_shutdown, crash_shutdown, cannot_connect_now; read_only_sql_transaction: a write reached a
// standby (a failover under way, an endpoint not yet pointed at the new primary), to retry there.
const UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '25006']);
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** The neutral kind of a pg error: a server SQLSTATE, a socket errno, or one of pg's own messages. */
export function postgresErrorKind(error: unknown): DatabaseErrorKind {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : '';
  if (BUSY.has(code)) return 'busy';
  if (code.startsWith('08') || UNAVAILABLE.has(code) || NETWORK.has(code)) return 'unavailable';
  // pg's own errors carry no code: a pool with no free connection in time, a connection that died.
  if (/timeout exceeded when trying to connect/i.test(message)) return 'busy';
  if (/Connection terminated|connection error|not queryable|Connection ended/i.test(message)) return 'unavailable';
  return 'failure';
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  '28P01': 'password authentication failed',
  '28000': 'the role may not log in',
  '3D000': 'the database does not exist',
  '57P03': 'the server is starting up or shutting down',
  '53300': 'too many connections',
};

/** Why a connection could not be made, in words, with the code a person can look up; never the URL or its password. */
export function connectFailureReason(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (REASONS[code]) return `${REASONS[code]} (${code})`;
  // A protocol violation at start is how a transaction pooler refuses the timeouts as startup parameters.
  if (code === '08P01' && error instanceof Error && /startup parameter/i.test(error.message)) {
    return `${error.message} (${code}): behind a pooler in transaction mode such as PgBouncer, set DATABASE_POOLER=transaction`;
  }
  if (error instanceof Error && /timeout exceeded/i.test(error.message)) return 'no answer within DATABASE_CONNECT_TIMEOUT_MS';
  return code ? `error ${code}` : 'unknown error';
}
