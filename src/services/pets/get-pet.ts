import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { MAX_SAFE_ID } from './pet-schema.ts';
import type { Pet } from './pet-schema.ts';
import { petColumns, toPet } from './to-pet.ts';

/** Accepts a number (REST, already parsed) or the decimal string a GraphQL ID carries. */
export function parsePetId(value: number | string): number {
  const id = typeof value === 'number' ? value : /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_SAFE_ID) {
    throw new AppError('VALIDATION_FAILED', `Pet id must be a positive integer no greater than ${MAX_SAFE_ID}.`);
  }
  return id;
}

export async function getPet(db: Kysely<Database>, petId: number | string): Promise<Pet> {
  const id = parsePetId(petId);
  const row = await db.selectFrom('pets').select(petColumns).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('PET_NOT_FOUND', `Pet ${id} could not be found.`);
  return toPet(row);
}
