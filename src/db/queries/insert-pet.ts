import type { Kysely } from 'kysely';
import { idInOrder } from '../engine.ts';
import { preparedQuery } from '../prepared-query.ts';
import type { Database, PetRow } from '../types.ts';
import { petColumns } from './pet-columns.ts';

/** Stores a new pet and returns its row. New pets are seen in id order, so a reader paging through never skips one (engine.ts). */
export const insertPet = preparedQuery(
  (db: Kysely<Database>, name: string, categoryId: number, status: PetRow['status'], createdAt: string) =>
    db
      .insertInto('pets')
      .values({ id: idInOrder(db, 'pets'), name, category_id: categoryId, status, created_at: createdAt })
      .returning(petColumns),
);
