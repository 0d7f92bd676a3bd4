import type { Kysely } from 'kysely';
import { idInOrder } from '../../db/engine.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/types.ts';
import { createValidator } from '../validation/validator.ts';
import { DEFAULT_PET_STATUS, newPetSchema } from './pet-schema.ts';
import type { NewPet, Pet, PetStatus } from './pet-schema.ts';
import { petColumns, toPet } from './to-pet.ts';

const validateNewPet = createValidator<NewPet>(newPetSchema);

// New pets are seen in id order, so a reader paging through never skips one (db/engine.ts).
const insertPet = preparedQuery((db: Kysely<Database>, name: string, categoryId: number, status: PetStatus, createdAt: string) =>
  db
    .insertInto('pets')
    .values({ id: idInOrder(db, 'pets'), name, category_id: categoryId, status, created_at: createdAt })
    .returning(petColumns),
);

export async function createPet(db: Kysely<Database>, input: unknown): Promise<Pet> {
  const { name, categoryId, status = DEFAULT_PET_STATUS } = validateNewPet(input);
  const [row] = await insertPet(db, name, categoryId, status, new Date().toISOString());
  if (!row) throw new Error('insert returned no row');
  return toPet(row);
}
