import { createPet as create } from './create-pet.ts';
import { getPet as get } from './get-pet.ts';
import { getPets as getMany } from './get-pets.ts';
import { countPets as count, listPets as list } from './list-pets.ts';
import { traced } from '../../telemetry/spans.ts';

export const { listPets, countPets, createPet, getPet, getPets } = traced('pets', {
  listPets: list,
  countPets: count,
  createPet: create,
  getPet: get,
  getPets: getMany,
});
export { petCursor, anyPetsBehind, petsListing } from './list-pets.ts';
export type { PetPage } from './list-pets.ts';
export * from './pet-schema.ts';
export { petsCreatedAfter, lastPetId } from './pets-created.ts';
