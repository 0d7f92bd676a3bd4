import { SafeIntResolver } from 'graphql-scalars';
import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { DateTimeScalar } from '../scalars/date-time.ts';
import { pageInfoResolvers } from './connection.ts';
import { eachOnItsOwn } from './each-on-its-own.ts';
import { keyResolvers } from './key-resolvers.ts';
import { messageResolvers } from './message-resolvers.ts';
import { orderResolvers } from './order-resolvers.ts';
import { petResolvers } from './pet-resolvers.ts';
import { subscriptionResolvers } from './subscription-resolvers.ts';

export const resolvers: Resolvers = {
  SafeInt: SafeIntResolver,
  DateTime: DateTimeScalar,
  Query: { ...petResolvers.Query, ...orderResolvers.Query, ...messageResolvers.Query, ...keyResolvers.Query },
  Mutation: eachOnItsOwn({
    ...petResolvers.Mutation,
    ...orderResolvers.Mutation,
    ...messageResolvers.Mutation,
    ...keyResolvers.Mutation,
  }),
  Subscription: subscriptionResolvers.Subscription,
  Pet: petResolvers.Pet,
  Order: orderResolvers.Order,
  CancelOrderPayload: orderResolvers.CancelOrderPayload,
  PetConnection: petResolvers.PetConnection,
  OrderConnection: orderResolvers.OrderConnection,
  PageInfo: pageInfoResolvers,
};
