import type { Principal } from '../services/api-keys/index.ts';
import type { GraphQLContext } from './context.ts';

/** useRequireKey stops unauthenticated operations before execution; reaching here without one is a wiring bug. */
export function requirePrincipal(context: GraphQLContext): Principal {
  if (!context.principal) throw new Error('resolver reached without authentication');
  return context.principal;
}
