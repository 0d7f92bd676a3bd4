import type { Kysely } from 'kysely';
import { insertPet } from '../../db/queries/insert-pet.ts';
import type { Database } from '../../db/types.ts';
import { createValidator } from '../validation/validator.ts';
import { DEFAULT_PET_STATUS, newPetSchema } from './pet-schema.ts';
import type { NewPet, Pet } from './pet-schema.ts';
import { toPet } from './to-pet.ts';

const validateNewPet = createValidator<NewPet>(newPetSchema);

export async function createPet(db: Kysely<Database>, input: unknown): Promise<Pet> {
  const { name, categoryId, status = DEFAULT_PET_STATUS } = validateNewPet(input);
  const [row] = await insertPet(db, name, categoryId, status, new Date().toISOString());
  if (!row) throw new Error('insert returned no row');
  return toPet(row);
}
