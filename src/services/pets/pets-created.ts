import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Pet } from './pet-schema.ts';
import { petColumns } from '../../db/queries/pet-columns.ts';
import { toPet } from './to-pet.ts';

/**
 * Pets committed with an id above `afterId`, in id order, at most `limit`: the live feed of new
 * pets. Ids commit in order on both engines (see docs/operations.md), so reading past the
 * last id seen never skips one.
 */
export async function petsCreatedAfter(db: Kysely<Database>, afterId: number, limit: number): Promise<Pet[]> {
  const rows = await db.selectFrom('pets').select(petColumns).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  return rows.map(toPet);
}

/** The highest pet id committed so far (0 when none): where a new feed starts. */
export async function lastPetId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('pets')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}
