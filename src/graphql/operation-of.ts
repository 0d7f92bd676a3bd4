import { getOperationAST } from 'graphql';
import type { DocumentNode } from 'graphql';
import { operationFact } from './document-entry.ts';

type Kind = { type: string; name: string | undefined };

function kindOf(document: DocumentNode, operationName: string | null | undefined): Kind {
  const operation = getOperationAST(document, operationName);
  return { type: operation?.operation ?? 'query', name: operation?.name?.value };
}

/** The chosen operation's type and name, for metrics and traces; a query when none matches. Once per operation. */
export function operationOf(document: DocumentNode, operationName: string | null | undefined): Kind {
  return operationFact(document, operationName, 'kind', kindOf);
}
