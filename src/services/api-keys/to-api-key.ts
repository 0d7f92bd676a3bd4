import type { Selectable } from 'kysely';
import type { ApiKeysTable } from '../../db/types.ts';
import { SCOPES, storedScopes } from '../access-tokens/scopes.ts';
import type { Scope } from '../access-tokens/scopes.ts';
import type { ApiKey } from './api-key-schema.ts';

export const apiKeyColumns = ['id', 'prefix', 'name', 'scopes', 'created_at', 'last_used_at', 'revoked_at'] as const;

type ApiKeyRow = Pick<Selectable<ApiKeysTable>, (typeof apiKeyColumns)[number]>;

/** A key's scopes as it is shown: the list, in the catalogue's order; null for a key that may do everything. */
export function keyScopes(stored: string | null): Scope[] | null {
  const scopes = storedScopes(stored);
  return scopes === null ? null : SCOPES.filter((scope) => scopes.has(scope));
}

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    scopes: keyScopes(row.scopes),
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
