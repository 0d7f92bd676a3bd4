import type { FieldNaming } from '../../services/validation/describe-issue.ts';
import { parseId } from '../../services/validation/parse-id.ts';
import type { GraphQLContext } from '../context.ts';
import { loadersOf } from '../loaders.ts';

/** The types this subgraph offers a supergraph as entities, each keyed by its id. */
export const ENTITY_TYPES = ['Pet', 'Order'] as const;

/** A reference's id is named as the gateway sent it, in `representations`. */
const REFERENCE: FieldNaming = (field) => `A representation's '${field}'`;

/**
 * How a gateway's references (`_entities(representations: [{ __typename: "Pet", id: "7" }])`)
 * become records: through the operation's batch loaders, so a batch of references is one query
 * per type, whatever its length; an order only the caller's, as everywhere. Each is async: a
 * reference refused (a malformed id) is its own item's error, not the whole batch's.
 */
export const entityResolvers = {
  Pet: {
    __resolveReference: async ({ id }: { id: string }, context: GraphQLContext) =>
      loadersOf(context).pet.load(parseId(id, 'id', REFERENCE)),
  },
  Order: {
    __resolveReference: async ({ id }: { id: string }, context: GraphQLContext) =>
      loadersOf(context).order.load(parseId(id, 'id', REFERENCE)),
  },
};
