import { anyPetsBehind, countPets, createPet, getPet, listPets, petCursor, petsListing } from '../../services/pets/index.ts';
import type { Pet, PetPage } from '../../services/pets/index.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { argumentNaming } from '../argument-naming.ts';
import { loadersOf } from '../loaders.ts';
import { connectionFields, pageRequest } from './connection.ts';
import { reading } from './reading.ts';

const ID_ARGUMENT = argumentNaming({ petId: 'id' });

export const petResolvers: Resolvers = {
  Query: {
    pets: reading(['pets'], (_parent, { status, ...paging }, { db }) => {
      const { query, naming, direction } = pageRequest(paging);
      return listPets(db, petsListing({ ...query, status: status ?? undefined }, { naming, direction }));
    }),
    pet: reading(['pets'], (_parent, { id }, { db }) => getPet(db, id, ID_ARGUMENT)),
  },
  Mutation: {
    createPet: (_parent, { input }, { db }) => createPet(db, { ...input }),
  },
  Pet: {
    // The caller's own orders of the pet.
    orders: reading(['orders'], (pet, _args, context) => loadersOf(context).ordersOfPet.load(pet.id)),
  },
  PetConnection: {
    ...connectionFields<Pet, PetPage>(petCursor, anyPetsBehind, ['pets']),
    // A field resolver: the count query runs only when a client selects totalCount.
    totalCount: reading(['pets'], (page, _args, { db }) => countPets(db, page.status)),
  },
};
