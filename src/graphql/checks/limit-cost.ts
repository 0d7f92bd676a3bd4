import { getOperationAST } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { AppError } from '../../errors/index.ts';
import { fromAppError } from '../coded-error.ts';
import { operationFact } from '../document-entry.ts';
import { QUERY_COST, queryCost } from '../query-cost.ts';
import type { OperationCost } from '../query-cost.ts';
import type { OperationCheck } from './operation-check.ts';

const NO_COST: OperationCost = { cost: 0, references: 0 };

/**
 * The cost limit (query-cost.ts) against `schema`, checked once the variables are known and
 * before anything runs: an operation over it, or carrying more entity references than a request
 * may, is QUERY_TOO_COMPLEX (400), the whole request refused. An operation without variables
 * costs the same every time: its cost is kept in the document's entry, walked once.
 */
export function limitCost(schema: GraphQLSchema): OperationCheck {
  const fixedCost = (document: DocumentNode, operationName: string | null | undefined): OperationCost => {
    const operation = getOperationAST(document, operationName);
    return operation ? queryCost(schema, document, operation, undefined) : NO_COST;
  };
  return (args) => {
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return;
    const { cost, references } = operation.variableDefinitions?.length
      ? queryCost(schema, args.document, operation, args.variableValues ?? undefined)
      : operationFact(args.document, args.operationName, 'fixedCost', fixedCost, schema);
    if (references > QUERY_COST.maxReferences) {
      throw fromAppError(AppError.of('QUERY_TOO_COMPLEX', 'graphqlReferences', { count: references, max: QUERY_COST.maxReferences }));
    }
    if (cost <= QUERY_COST.max) return;
    throw fromAppError(AppError.of('QUERY_TOO_COMPLEX', 'graphqlCost', { cost, max: QUERY_COST.max }));
  };
}
