import type { Plugin } from 'graphql-yoga';
import { runChecks } from '../checks/operation-check.ts';
import type { CheckedOperation, OperationCheck } from '../checks/operation-check.ts';

/** The operation checks (checks/) on what runs through Yoga: every execute and subscribe. */
export function useOperationChecks<Context extends object>(checks: readonly OperationCheck[]): Plugin<Context> {
  const check = ({ args }: { args: unknown }) => runChecks(checks, args as CheckedOperation);
  return { onExecute: check, onSubscribe: check };
}
