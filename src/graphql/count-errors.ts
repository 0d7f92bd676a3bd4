import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Metrics } from '../telemetry/metrics-types.ts';

const codeOf = (error: GraphQLError) => (typeof error.extensions?.code === 'string' ? error.extensions.code : 'INTERNAL_ERROR');

/** Counts each error of a result by its code, under the same labels as REST's. */
export function countErrors(metrics: Metrics, result: ExecutionResult): void {
  for (const error of result.errors ?? []) metrics.error('graphql', codeOf(error as GraphQLError));
}
