import { countPets, createPet, getPet, listPets, petCursor } from '../../services/pets/index.ts';
import type { Pet } from '../../services/pets/index.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { argumentNaming, LIST_ARGUMENTS } from '../argument-naming.ts';
import { connectionFields } from './connection.ts';

const ID_ARGUMENT = argumentNaming({ petId: 'id' });

export const petResolvers: Resolvers = {
  Query: {
    pets: (_parent, { first, after, status }, { db }) =>
      listPets(db, { limit: first, cursor: after ?? undefined, status: status ?? undefined }, LIST_ARGUMENTS),
    pet: (_parent, { id }, { db }) => getPet(db, id, ID_ARGUMENT),
  },
  Mutation: {
    createPet: (_parent, { input }, { db }) => createPet(db, { ...input }),
  },
  PetConnection: {
    ...connectionFields<Pet>(petCursor),
    // A field resolver: the count query runs only when a client selects totalCount.
    totalCount: (page, _args, { db }) => countPets(db, page.status),
  },
};
