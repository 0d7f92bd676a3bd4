export { startIdempotent, finishIdempotent, abandonIdempotent, requestFingerprint, IDEMPOTENCY_TTL_MS } from './idempotency.ts';
export type { StoredResult } from './idempotency.ts';
