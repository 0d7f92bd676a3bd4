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

/** Runs `checks` in order, each once the one before has passed. */
export async function runChecks(checks: readonly OperationCheck[], operation: CheckedOperation): Promise<void> {
  for (const check of checks) await check(operation);
}
