import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Database } from '../../db/types.ts';
import { decodeCursor, encodeCursor } from '../pagination/cursor.ts';
import { keysetPage, PAGE_SIZE } from '../pagination/keyset-page.ts';
import type { Page } from '../pagination/keyset-page.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { createValidator } from '../validation/validator.ts';
import { listPetsQuerySchema } from './pet-schema.ts';
import type { ListPetsQuery, Pet, PetStatus } from './pet-schema.ts';
import { petColumns, toPet } from './to-pet.ts';

export interface PetPage extends Page<Pet> {
  /** The filter the page was read with, so a count can match it. */
  status: PetStatus | undefined;
}

const validateQuery = createValidator<ListPetsQuery>(listPetsQuerySchema);

// The two shapes of a page read, built once: listing is the busiest read this API serves.
const firstRows = (db: Kysely<Database>, afterId: number) => db.selectFrom('pets').select(petColumns).where('id', '>', afterId);
const readPage = preparedQuery((db: Kysely<Database>, afterId: number, rows: number) => firstRows(db, afterId).orderBy('id').limit(rows));
const readPageWithStatus = preparedQuery((db: Kysely<Database>, afterId: number, rows: number, status: PetStatus) =>
  firstRows(db, afterId).where('status', '=', status).orderBy('id').limit(rows),
);

/** The cursor that resumes a listing right after this pet; REST's Link and GraphQL's edges use the same. */
export function petCursor(pet: Pick<Pet, 'id'>): string {
  return encodeCursor('pets', pet.id);
}

/** Pets in ascending id order, a page at a time. Keyset pagination: a deep page costs what the first does. */
export async function listPets(db: Kysely<Database>, query: ListPetsQuery, naming?: FieldNaming): Promise<PetPage> {
  const { limit = PAGE_SIZE.default, status, cursor } = validateQuery({ ...query }, naming);
  const afterId = cursor === undefined ? 0 : decodeCursor('pets', cursor);

  // One extra row says whether a next page exists without a count.
  const rows = await (status === undefined ? readPage(db, afterId, limit + 1) : readPageWithStatus(db, afterId, limit + 1, status));

  return { ...keysetPage(rows, limit, toPet, petCursor), status };
}

export async function countPets(db: Kysely<Database>, status: PetStatus | undefined): Promise<number> {
  let select = db.selectFrom('pets').select((eb) => eb.fn.countAll<number>().as('count'));
  if (status !== undefined) select = select.where('status', '=', status);
  return Number((await select.executeTakeFirstOrThrow()).count);
}
