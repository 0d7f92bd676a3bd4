import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { rowCount } from '../counts/row-count.ts';
import { decodeCursor, encodeCursor } from '../pagination/cursor.ts';
import { keysetPage, PAGE_SIZE } from '../pagination/keyset-page.ts';
import type { Listing, ListingOptions, Page } from '../pagination/keyset-page.ts';
import { createValidator } from '../validation/validator.ts';
import { listPetsQuerySchema } from './pet-schema.ts';
import type { ListPetsQuery, Pet, PetStatus } from './pet-schema.ts';
import { petsPage } from '../../db/queries/pets-page.ts';
import { toPet } from './to-pet.ts';

export interface PetPage extends Page<Pet> {
  /** The filter the page was read with, so a count can match it. */
  status: PetStatus | undefined;
}

const validateQuery = createValidator<ListPetsQuery>(listPetsQuerySchema);

/** The cursor that resumes a listing right after this pet; REST's Link and GraphQL's edges use the same. */
export function petCursor(pet: Pick<Pet, 'id'>): string {
  return encodeCursor('pets', pet.id);
}

/** A page of pets as a query asks for it: VALIDATION_FAILED, or INVALID_CURSOR for a cursor not of this list, before anything is read. */
export function petsListing(
  query: ListPetsQuery,
  { naming, direction = 'forward', validated = false }: ListingOptions = {},
): Listing<PetStatus> {
  const { limit = PAGE_SIZE.default, status, cursor } = validated ? query : validateQuery({ ...query }, naming);
  return { limit, status, cursorId: cursor === undefined ? null : decodeCursor('pets', cursor), direction };
}

/**
 * Pets in ascending id order, a page at a time. Keyset pagination: a deep page costs what the
 * first does. Forward from the cursor (or the start); backward before it (or from the end).
 */
export async function listPets(db: Kysely<Database>, { limit, status, cursorId, direction }: Listing<PetStatus>): Promise<PetPage> {
  // One extra row says whether more exist that way, without a count.
  const rows = await petsPage(db, direction, cursorId, status, limit + 1);
  return { ...keysetPage(rows, limit, toPet, petCursor, direction, cursorId), status };
}

/**
 * Whether pets matching the page's filter lie behind the cursor it was read from: at or before
 * it for a forward page, at or after it for a backward one (Relay's hasPreviousPage / hasNextPage
 * on the side the client came from). False for a page read from an end.
 */
export async function anyPetsBehind(db: Kysely<Database>, page: PetPage): Promise<boolean> {
  if (page.cursorId === null) return false;
  let select = db
    .selectFrom('pets')
    .select('id')
    .where('id', page.direction === 'forward' ? '<=' : '>=', page.cursorId);
  if (page.status !== undefined) select = select.where('status', '=', page.status);
  return (await select.limit(1).executeTakeFirst()) !== undefined;
}

/** Pets, of `status` when given: one row read, however many pets there are. */
export function countPets(db: Kysely<Database>, status: PetStatus | undefined): Promise<number> {
  return rowCount(db, status === undefined ? 'pets' : `pets:${status}`);
}
