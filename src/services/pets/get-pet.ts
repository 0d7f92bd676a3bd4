import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { parseId } from '../validation/parse-id.ts';
import type { Pet } from './pet-schema.ts';
import { petColumns, toPet } from './to-pet.ts';

const findPet = preparedQuery((db: Kysely<Database>, id: number) => db.selectFrom('pets').select(petColumns).where('id', '=', id));

export async function getPet(db: Kysely<Database>, petId: number | string, naming?: FieldNaming): Promise<Pet> {
  const id = parseId(petId, 'petId', naming);
  const [row] = await findPet(db, id);
  if (!row) throw AppError.of('PET_NOT_FOUND', 'byId', { id });
  return toPet(row);
}
