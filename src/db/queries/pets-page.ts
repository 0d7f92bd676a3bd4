import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.ts';
import type { Database, PetRow } from '../types.ts';
import { petColumns } from './pet-columns.ts';

type Way = 'forward' | 'backward';

/**
 * The four shapes of a page read one way: from the end or after a cursor, with or without a
 * status. A prepared query has one shape, so each is its own (built once, not per request: the
 * list's query was the one Kysely still built on every call, a tenth of a list's CPU on-CPU).
 */
function shapesOf(way: Way) {
  const past = way === 'forward' ? '>' : '<';
  const order = way === 'forward' ? 'asc' : 'desc';
  const pets = (db: Kysely<Database>) => db.selectFrom('pets').select(petColumns);
  return {
    fromEnd: preparedQuery((db: Kysely<Database>, rows: number) => pets(db).orderBy('id', order).limit(rows)),
    fromEndOfStatus: preparedQuery((db: Kysely<Database>, status: PetRow['status'], rows: number) =>
      pets(db).where('status', '=', status).orderBy('id', order).limit(rows),
    ),
    pastCursor: preparedQuery((db: Kysely<Database>, cursorId: number, rows: number) =>
      pets(db).where('id', past, cursorId).orderBy('id', order).limit(rows),
    ),
    pastCursorOfStatus: preparedQuery((db: Kysely<Database>, cursorId: number, status: PetRow['status'], rows: number) =>
      pets(db).where('id', past, cursorId).where('status', '=', status).orderBy('id', order).limit(rows),
    ),
  };
}

const SHAPES = { forward: shapesOf('forward'), backward: shapesOf('backward') };

/**
 * Up to `rows` pets in id order going `way`, strictly past `cursorId` when given (else from that
 * way's start), of `status` when given.
 */
export function petsPage(db: Kysely<Database>, way: Way, cursorId: number | null, status: PetRow['status'] | undefined, rows: number) {
  const shapes = SHAPES[way];
  if (cursorId === null) return status === undefined ? shapes.fromEnd(db, rows) : shapes.fromEndOfStatus(db, status, rows);
  return status === undefined ? shapes.pastCursor(db, cursorId, rows) : shapes.pastCursorOfStatus(db, cursorId, status, rows);
}
