import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { parseId } from '../validation/parse-id.ts';
import type { Pet } from './pet-schema.ts';
import { petColumns, toPet } from './to-pet.ts';

export async function getPet(db: Kysely<Database>, petId: number | string): Promise<Pet> {
  const id = parseId(petId, 'Pet');
  const row = await db.selectFrom('pets').select(petColumns).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('PET_NOT_FOUND', `Pet ${id} could not be found.`);
  return toPet(row);
}
