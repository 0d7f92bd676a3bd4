import { requirePrincipal } from '../../services/api-keys/index.ts';
import { getMessage, sendMessage } from '../../services/messages/index.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { argumentNaming } from '../argument-naming.ts';
import { reading } from './reading.ts';

export const messageResolvers: Resolvers = {
  Query: {
    message: reading(['messages'], (_parent, { id }, context) =>
      getMessage(context.db, requirePrincipal(context).accountId, id, argumentNaming()),
    ),
  },
  Mutation: {
    sendMessage: (_parent, { message }, context) =>
      sendMessage(context.db, requirePrincipal(context).accountId, { message }, argumentNaming()),
  },
};
