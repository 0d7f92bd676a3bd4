import { getOperationAST } from 'graphql';
import type { DocumentNode, ExecutionArgs, OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors/index.ts';
import { fromAppError } from '../coded-error.ts';
import { QUERY_COST, queryCost } from '../query-cost.ts';

/**
 * The cost limit (query-cost.ts), checked once the variables are known and before anything
 * runs: an operation over it is QUERY_TOO_COMPLEX (400), the whole request refused.
 */
export function useQueryCost<Context extends object>(): Plugin<Context> {
  // An operation without variables costs the same every time: Yoga's parse cache hands back the
  // same document for the same text, so a busy operation is walked once, not on every request.
  const fixedCost = new WeakMap<OperationDefinitionNode, number>();
  const costOf = (args: ExecutionArgs, operation: OperationDefinitionNode): number => {
    if (operation.variableDefinitions?.length) return queryCost(args.schema, args.document, operation, args.variableValues ?? undefined);
    let cost = fixedCost.get(operation);
    if (cost === undefined) fixedCost.set(operation, (cost = queryCost(args.schema, args.document, operation, undefined)));
    return cost;
  };
  const check = ({ args }: { args: ExecutionArgs }) => {
    const operation = getOperationAST(args.document as DocumentNode, args.operationName);
    if (!operation) return;
    const cost = costOf(args, operation);
    if (cost <= QUERY_COST.max) return;
    throw fromAppError(
      AppError.of('QUERY_TOO_COMPLEX', 'graphqlCost', {
        cost,
        max: QUERY_COST.max,
        perQuery: QUERY_COST.query,
        defaultPage: QUERY_COST.defaultPage,
      }),
    );
  };
  return { onExecute: check, onSubscribe: check };
}
