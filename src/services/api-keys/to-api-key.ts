import type { Selectable } from 'kysely';
import type { ApiKeysTable } from '../../db/types.ts';
import type { ApiKey } from './api-key-schema.ts';

export const apiKeyColumns = ['id', 'prefix', 'name', 'created_at', 'last_used_at', 'revoked_at'] as const;

type ApiKeyRow = Pick<Selectable<ApiKeysTable>, (typeof apiKeyColumns)[number]>;

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
