import type { Principal } from './key-verifier.ts';

/**
 * For handlers that sit behind an authentication check (REST's hook, GraphQL's
 * checks/require-key.ts): reaching one without a principal is a wiring bug, not a client error.
 */
export function requirePrincipal(holder: { principal: Principal | null }): Principal {
  if (!holder.principal) throw new Error('handler reached without authentication');
  return holder.principal;
}
