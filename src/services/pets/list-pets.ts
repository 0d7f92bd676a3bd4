import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { decodeCursor, encodeCursor } from '../pagination/cursor.ts';
import { PAGE_SIZE } from '../pagination/page-size.ts';
import type { Page } from '../pagination/page-size.ts';
import { createValidator } from '../validation/validator.ts';
import { listPetsQuerySchema } from './pet-schema.ts';
import type { ListPetsQuery, Pet } from './pet-schema.ts';
import { petColumns, toPet } from './to-pet.ts';

const validateQuery = createValidator<ListPetsQuery>(listPetsQuerySchema, 'querystring');

/** Pets in ascending id order, a page at a time. Keyset pagination: a deep page costs what the first does. */
export async function listPets(db: Kysely<Database>, query: ListPetsQuery): Promise<Page<Pet>> {
  const { limit = PAGE_SIZE.default, status, cursor } = validateQuery({ ...query });
  const afterId = cursor === undefined ? 0 : decodeCursor('pets', cursor);

  let select = db.selectFrom('pets').select(petColumns).where('id', '>', afterId);
  if (status !== undefined) select = select.where('status', '=', status);
  // One extra row says whether a next page exists without a count.
  const rows = await select.orderBy('id').limit(limit + 1).execute();

  const items = rows.slice(0, limit).map(toPet);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor('pets', last.id) : null };
}
