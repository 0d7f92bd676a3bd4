export { startIdempotent, requestFingerprint, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_TTL_MS } from './idempotency.ts';
export type { RequestFingerprint } from './idempotency.ts';
export type { IdempotentRun, StoredResult } from './idempotency.ts';
// One step of an idempotent request's transaction that must succeed or fail whole (GraphQL's mutation fields).
export { onItsOwn } from '../../db/in-transaction.ts';
