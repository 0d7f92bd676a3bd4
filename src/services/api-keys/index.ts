import { createOwnKey as createOwn } from './create-own-key.ts';
import { listOwnKeys as listOwn } from './list-own-keys.ts';
import { revokeOwnKey as revokeOwn } from './revoke-own-key.ts';
import { traced } from '../../telemetry/spans.ts';

export { createApiKey } from './create-api-key.ts';
export type { CreatedApiKey } from './create-api-key.ts';
export { createKeyVerifier } from './key-verifier.ts';
export type { KeyVerdict, KeyVerifier, Principal } from './key-verifier.ts';
export { listApiKeys } from './list-api-keys.ts';
export type { ApiKeySummary } from './list-api-keys.ts';
export { revokeApiKey } from './revoke-api-key.ts';
export { ensureFirstKey } from './ensure-first-key.ts';
export { anyUsableKey } from './any-usable-key.ts';
export { requirePrincipal } from './require-principal.ts';
export const { createOwnKey, listOwnKeys, revokeOwnKey } = traced('keys', {
  createOwnKey: createOwn,
  listOwnKeys: listOwn,
  revokeOwnKey: revokeOwn,
});
export * from './api-key-schema.ts';
