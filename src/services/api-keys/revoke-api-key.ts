import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';

export interface RevokedApiKey {
  id: number;
  prefix: string;
  revokedAt: string;
  /** True when the key had been revoked before: nothing changed, and revokedAt is that first time. */
  alreadyRevoked: boolean;
}

/** Revokes by numeric id or by prefix. Revoking twice keeps the first time. */
export async function revokeApiKey(db: Kysely<Database>, idOrPrefix: string): Promise<RevokedApiKey> {
  const byId = /^[1-9][0-9]{0,15}$/.test(idOrPrefix);
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'prefix', 'revoked_at'])
    .where(byId ? 'id' : 'prefix', '=', byId ? Number(idOrPrefix) : idOrPrefix)
    .executeTakeFirst();
  if (!row) throw AppError.of('API_KEY_NOT_FOUND', 'byIdOrPrefix', { key: idOrPrefix });
  const revokedAt = row.revoked_at ?? new Date().toISOString();
  if (row.revoked_at === null) {
    await db.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', row.id).execute();
  }
  return { id: row.id, prefix: row.prefix, revokedAt, alreadyRevoked: row.revoked_at !== null };
}
