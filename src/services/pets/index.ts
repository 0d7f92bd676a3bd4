export { listPets, countPets, petCursor } from './list-pets.ts';
export type { PetPage } from './list-pets.ts';
export { createPet } from './create-pet.ts';
export { getPet } from './get-pet.ts';
export * from './pet-schema.ts';
