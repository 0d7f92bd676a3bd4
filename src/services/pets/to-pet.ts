import type { PetRow } from '../../db/types.ts';
import type { Pet } from './pet-schema.ts';

export const petColumns = ['id', 'name', 'category_id', 'status'] as const;

export function toPet(row: Pick<PetRow, (typeof petColumns)[number]>): Pet {
  return { id: row.id, name: row.name, categoryId: row.category_id, status: row.status };
}
