export { createApiKey } from './create-api-key.ts';
export type { CreatedApiKey } from './create-api-key.ts';
export { createKeyVerifier } from './key-verifier.ts';
export type { KeyVerifier, Principal } from './key-verifier.ts';
export { listApiKeys } from './list-api-keys.ts';
export type { ApiKeySummary } from './list-api-keys.ts';
export { revokeApiKey } from './revoke-api-key.ts';
export { ensureFirstKey } from './ensure-first-key.ts';
export { requirePrincipal } from './require-principal.ts';
