import { sendMessage } from '../../services/messages/index.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { requirePrincipal } from '../require-principal.ts';

export const messageResolvers: Resolvers = {
  Mutation: {
    sendMessage: (_parent, { message }, context) => sendMessage(context.db, requirePrincipal(context).accountId, { message }),
  },
};
