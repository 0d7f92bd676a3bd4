import type { ExecutionArgs } from 'graphql';
import type { MaybePromise } from '../../http/maybe-promise.ts';
import type { GraphQLContext, ServerContext } from '../context.ts';

/** What a check reads of an operation about to run: its document, chosen operation, variables as sent, and context. */
export interface CheckedOperation extends ExecutionArgs {
  contextValue: GraphQLContext & ServerContext;
}

/**
 * A rule an operation must pass before anything of it runs: it throws the coded refusal (or
 * rejects with it). The same checks, in the same order, guard every way an operation runs:
 * the one pipeline's (http/run-graphql.ts), whichever transport carries the operation.
 */
export type OperationCheck = (operation: CheckedOperation) => MaybePromise<void>;

/**
 * Runs `checks` in order, each once the one before has passed: a promise only from the first
 * check that answers with one. Awaiting each check made a promise a check (ten a request on the
 * GraphQL list), and most answer at once.
 */
export function runChecks(checks: readonly OperationCheck[], operation: CheckedOperation, from = 0): MaybePromise<void> {
  for (let i = from; i < checks.length; i++) {
    const pending = (checks[i] as OperationCheck)(operation);
    if (pending instanceof Promise) return pending.then(() => runChecks(checks, operation, i + 1));
  }
}
