import DataLoader from 'dataloader';
import { requirePrincipal } from '../services/api-keys/index.ts';
import { getOrders, ordersOfPets } from '../services/orders/index.ts';
import type { Order } from '../services/orders/index.ts';
import { getPets } from '../services/pets/index.ts';
import type { Pet } from '../services/pets/index.ts';
import { AppError } from '../errors/index.ts';
import type { GraphQLContext } from './context.ts';

export interface Loaders {
  pet: DataLoader<number, Pet>;
  /** The caller's orders by id (a gateway's references to them). */
  order: DataLoader<number, Order>;
  ordersOfPet: DataLoader<number, Order[]>;
  /**
   * Pets read ahead for a page whose items will each ask for theirs (`preloadPets`): taken
   * from here without a promise per item. A promise per order of a page of 100 cost as much
   * as the page's own read (measured: 867 against 562 µs per request).
   */
  pets: Map<number, Pet>;
}

// Made on first use, per operation: a list that selects no relation never builds one.
const made = new WeakMap<GraphQLContext, Loaders>();

/**
 * The operation's batch loaders: relations asked for by many parents at once (a page of orders'
 * pets) become one query per relation and page, not one per parent. Each reads through the
 * operation's own database handle, so it sees what the operation wrote.
 */
export function loadersOf(context: GraphQLContext): Loaders {
  const existing = made.get(context);
  if (existing) return existing;
  const { db } = context;
  const loaders: Loaders = {
    pet: new DataLoader<number, Pet>(async (ids) => {
      const pets = await getPets(db, ids);
      return ids.map((id) => pets.get(id) ?? AppError.of('PET_NOT_FOUND', 'byId', { id }));
    }),
    order: new DataLoader<number, Order>(async (ids) => {
      const orders = await getOrders(db, requirePrincipal(context).accountId, ids);
      return ids.map((id) => orders.get(id) ?? AppError.of('ORDER_NOT_FOUND', 'byId', { id }));
    }),
    ordersOfPet: new DataLoader<number, Order[]>(async (petIds) => {
      const orders = await ordersOfPets(db, requirePrincipal(context).accountId, petIds);
      return petIds.map((id) => orders.get(id) ?? []);
    }),
    pets: new Map(),
  };
  made.set(context, loaders);
  return loaders;
}

/** Reads the pets of a page's items in one query, before the items ask (Loaders.pets). */
export async function preloadPets(context: GraphQLContext, ids: readonly number[]): Promise<void> {
  const { pets } = loadersOf(context);
  for (const [id, pet] of await getPets(context.db, ids)) pets.set(id, pet);
}
