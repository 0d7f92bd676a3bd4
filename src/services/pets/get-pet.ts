import type { Kysely } from 'kysely';
import { petById } from '../../db/queries/pet-by-id.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { parseId } from '../validation/parse-id.ts';
import type { Pet } from './pet-schema.ts';
import { toPet } from './to-pet.ts';

export async function getPet(db: Kysely<Database>, petId: number | string, naming?: FieldNaming): Promise<Pet> {
  const id = parseId(petId, 'petId', naming);
  const [row] = await petById(db, id);
  if (!row) throw AppError.of('PET_NOT_FOUND', 'byId', { id });
  return toPet(row);
}
