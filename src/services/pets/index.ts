export { listPets, countPets, petCursor, anyPetsBehind } from './list-pets.ts';
export type { PetPage } from './list-pets.ts';
export { createPet } from './create-pet.ts';
export { getPet } from './get-pet.ts';
export * from './pet-schema.ts';
export { getPets } from './get-pets.ts';
export { petsCreatedAfter, lastPetId } from './pets-created.ts';
