import { getOperationAST } from 'graphql';
import type { DocumentNode } from 'graphql';
import type { Scope } from '../../services/access-tokens/scopes.ts';
import { fromAppError } from '../coded-error.ts';
import { missingScope } from '../scopes.ts';
import type { OperationCheck } from './operation-check.ts';

/**
 * A mutation runs only when its credential carries every scope its fields need (scopes.ts),
 * else 403 INSUFFICIENT_SCOPE before anything of it runs: its writes would happen whatever its
 * answer shows, so a write whose answer selects what the credential may not read (a
 * write-only token's `createPet { orders { … } }`) is refused whole, not stored and answered
 * null. Queries and subscriptions write nothing: a field refused there is that field's error.
 */
export function requireScopes(
  scopesOf: (document: DocumentNode, operationName: string | null | undefined) => ReadonlySet<Scope>,
): OperationCheck {
  return ({ contextValue, document, operationName }) => {
    const { principal } = contextValue;
    if (!principal || principal.scopes === null) return;
    if (getOperationAST(document, operationName)?.operation !== 'mutation') return;
    const refusal = missingScope(principal, scopesOf(document, operationName));
    if (refusal) throw fromAppError(refusal);
  };
}
