import { getOperationAST } from 'graphql';
import { perOperation } from './per-operation.ts';

/** The chosen operation's type and name, for metrics and traces; a query when none matches. */
export const operationOf = perOperation((document, operationName): { type: string; name: string | undefined } => {
  const operation = getOperationAST(document, operationName);
  return { type: operation?.operation ?? 'query', name: operation?.name?.value };
});
