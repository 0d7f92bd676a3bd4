import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { Database } from '../types.ts';
import { petColumns } from './pet-columns.ts';

/** One pet by its id: none, or its row. */
export const petById = preparedQuery((db: Kysely<Database>, id: number) => db.selectFrom('pets').select(petColumns).where('id', '=', id));
