import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { createValidator } from '../validation/validator.ts';
import { DEFAULT_PET_STATUS, newPetSchema } from './pet-schema.ts';
import type { NewPet, Pet } from './pet-schema.ts';
import { petColumns, toPet } from './to-pet.ts';

const validateNewPet = createValidator<NewPet>(newPetSchema, 'body');

export async function createPet(db: Kysely<Database>, input: unknown): Promise<Pet> {
  const { name, categoryId, status = DEFAULT_PET_STATUS } = validateNewPet(input);
  const row = await db
    .insertInto('pets')
    .values({ name, category_id: categoryId, status, created_at: new Date().toISOString() })
    .returning(petColumns)
    .executeTakeFirstOrThrow();
  return toPet(row);
}
