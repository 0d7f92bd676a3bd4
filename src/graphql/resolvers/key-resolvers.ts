import { createOwnKey, listOwnKeys, requirePrincipal, revokeOwnKey } from '../../services/api-keys/index.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { refuseIdempotencyKey } from '../../http/idempotency/refuse-idempotency-key.ts';
import { argumentNaming } from '../argument-naming.ts';
import { needing } from './needing.ts';
import { reading } from './reading.ts';

const ID_ARGUMENT = argumentNaming({ keyId: 'id' });

export const keyResolvers: Resolvers = {
  Query: {
    // lastUsedAt moves with the key-usage flush, which no version follows.
    myKeys: needing(
      'petstore:keys',
      reading('uncacheable', (_parent, _args, context) => listOwnKeys(context.db, requirePrincipal(context).accountId)),
    ),
  },
  Mutation: {
    // GraphQL's null for an optional field means "not given", as REST's absent field does.
    createKey: needing('petstore:keys', (_parent, { input }, context) => {
      if (context.idempotent) throw refuseIdempotencyKey('createKey');
      const asked = { ...(input?.name != null ? { name: input.name } : {}), ...(input?.scopes != null ? { scopes: input.scopes } : {}) };
      return createOwnKey(context.db, requirePrincipal(context), asked);
    }),
    revokeKey: needing('petstore:keys', (_parent, { id }, context) =>
      revokeOwnKey(context.db, requirePrincipal(context).accountId, id, ID_ARGUMENT),
    ),
  },
};
