import type { petColumns } from '../../db/queries/pet-columns.ts';
import type { PetRow } from '../../db/types.ts';
import type { Pet } from './pet-schema.ts';

export function toPet(row: Pick<PetRow, (typeof petColumns)[number]>): Pet {
  return { id: row.id, name: row.name, categoryId: row.category_id, status: row.status };
}
