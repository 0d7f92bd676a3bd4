import { requirePrincipal } from '../../services/api-keys/index.ts';
import type { Message } from '../../services/messages/index.ts';
import type { Pet } from '../../services/pets/index.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { argumentNaming } from '../argument-naming.ts';

export const subscriptionResolvers: Resolvers = {
  Subscription: {
    messageUpdated: {
      subscribe: (_parent, { id }, context) => {
        const { keyId, accountId } = requirePrincipal(context);
        return context.live.messageUpdated(keyId, accountId, id, argumentNaming());
      },
      resolve: (message: Message) => message,
    },
    petCreated: {
      subscribe: (_parent, { status }, context) => context.live.petCreated(requirePrincipal(context).keyId, status ?? undefined),
      resolve: (pet: Pet) => pet,
    },
  },
};
