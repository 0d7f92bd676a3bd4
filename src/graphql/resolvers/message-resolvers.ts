import { requirePrincipal } from '../../services/api-keys/index.ts';
import { sendMessage } from '../../services/messages/index.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

export const messageResolvers: Resolvers = {
  Mutation: {
    sendMessage: (_parent, { message }, context) => sendMessage(context.db, requirePrincipal(context).accountId, { message }),
  },
};
