import { AppError } from '../../errors/index.ts';
import { requirePrincipal } from '../../services/api-keys/index.ts';
import type { Message } from '../../services/messages/index.ts';
import type { Pet } from '../../services/pets/index.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { argumentNaming } from '../argument-naming.ts';

/** A stream's last item may be why it ended (a revoked key): the subscription's final event is then that error. */
function eventOrReason<T>(event: T | AppError): T {
  if (event instanceof AppError) throw event;
  return event;
}

export const subscriptionResolvers: Resolvers = {
  Subscription: {
    messageUpdated: {
      subscribe: (_parent, { id }, context) => context.live.messageUpdated(requirePrincipal(context), id, argumentNaming()),
      resolve: (event: Message | AppError) => eventOrReason(event),
    },
    petCreated: {
      subscribe: (_parent, { status }, context) => context.live.petCreated(requirePrincipal(context), status ?? undefined),
      resolve: (event: Pet | AppError) => eventOrReason(event),
    },
  },
};
