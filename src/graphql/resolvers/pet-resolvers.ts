import { countPets, createPet, getPet, listPets, petCursor } from '../../services/pets/index.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

// GraphQL's names for the fields of the service's list query, for its error messages.
const listNaming = { part: 'input', names: { limit: 'first', cursor: 'after' } } as const;

export const petResolvers: Resolvers = {
  Query: {
    pets: (_parent, { first, after, status }, { db }) =>
      listPets(db, { limit: first, cursor: after ?? undefined, status: status ?? undefined }, listNaming),
    pet: (_parent, { id }, { db }) => getPet(db, id),
  },
  Mutation: {
    createPet: (_parent, { input }, { db }) => createPet(db, { ...input }),
  },
  PetConnection: {
    edges: (page) => page.items.map((pet) => ({ cursor: petCursor(pet), node: pet })),
    nodes: (page) => page.items,
    pageInfo: (page) => {
      const last = page.items.at(-1);
      return { hasNextPage: page.nextCursor !== null, endCursor: last ? petCursor(last) : null };
    },
    // A field resolver: the count query runs only when a client selects totalCount.
    totalCount: (page, _args, { db }) => countPets(db, page.status),
  },
};
