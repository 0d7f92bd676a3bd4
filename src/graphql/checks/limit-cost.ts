import { getOperationAST } from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import { AppError } from '../../errors/index.ts';
import { fromAppError } from '../coded-error.ts';
import { operationFact } from '../document-entry.ts';
import { QUERY_COST, queryCost } from '../query-cost.ts';
import type { OperationCost } from '../query-cost.ts';
import type { CheckedOperation, OperationCheck } from './operation-check.ts';

// An operation without variables costs the same every time: kept in the document's entry, so a
// busy operation is walked once, not on every request.
function costOf(args: CheckedOperation, operation: OperationDefinitionNode): OperationCost {
  const { schema, document, operationName } = args;
  if (operation.variableDefinitions?.length) return queryCost(schema, document, operation, args.variableValues ?? undefined);
  return operationFact(document, operationName, 'fixedCost', () => queryCost(schema, document, operation, undefined), schema);
}

/**
 * The cost limit (query-cost.ts), checked once the variables are known and before anything
 * runs: an operation over it, or carrying more entity references than a request may, is
 * QUERY_TOO_COMPLEX (400), the whole request refused.
 */
export const limitCost: OperationCheck = (args) => {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return;
  const { cost, references } = costOf(args, operation);
  if (references > QUERY_COST.maxReferences) {
    throw fromAppError(AppError.of('QUERY_TOO_COMPLEX', 'graphqlReferences', { count: references, max: QUERY_COST.maxReferences }));
  }
  if (cost <= QUERY_COST.max) return;
  throw fromAppError(AppError.of('QUERY_TOO_COMPLEX', 'graphqlCost', { cost, max: QUERY_COST.max }));
};
