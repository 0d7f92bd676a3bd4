import type { ExecutionResult, GraphQLError } from 'graphql';
import type { GraphQLContext } from './context.ts';
import { isUnexpected } from './mask-error.ts';

/** Logs the errors of a result (before masking) that the mask will show as INTERNAL_ERROR. */
export function logUnexpected(context: GraphQLContext, result: ExecutionResult): void {
  for (const error of result.errors ?? []) {
    const original = (error as GraphQLError).originalError ?? error;
    if (!isUnexpected(original)) continue;
    context.log.error({ err: original, requestId: context.requestId, path: error.path }, 'GraphQL resolver failed');
  }
}
