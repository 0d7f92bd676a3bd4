import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Pet } from './pet-schema.ts';
import { petColumns } from '../../db/queries/pet-columns.ts';
import { toPet } from './to-pet.ts';

/**
 * Many pets in one query, by id: what a batch of relations (orders' pets) needs. Ids not found
 * are absent from the map; the catalogue is public, so no account filter.
 */
export async function getPets(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, Pet>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('pets')
    .select(petColumns)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, toPet(row)]));
}
