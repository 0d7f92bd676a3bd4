import { getOperationAST } from 'graphql';
import type { DocumentNode } from 'graphql';
import type { FastifyRequest } from 'fastify';
import type { DocumentParser } from './parse-document.ts';
import { documentIdOf } from './trusted-document-id.ts';

/** A mutation a request runs: its parsed document and the operation's name. */
export interface MutationRequest {
  document: DocumentNode;
  operationName: string | undefined;
}

/**
 * The mutation a POSTed GraphQL request runs, sent as text or as a trusted document's id, or
 * null: only mutations take an Idempotency-Key. Documents that do not parse within the limits
 * are left to the route to refuse.
 */
export function mutationRequest(
  request: FastifyRequest,
  parser: DocumentParser,
  documents: ReadonlyMap<string, string> | null = null,
): MutationRequest | null {
  const body = request.body as { query?: unknown; operationName?: unknown; documentId?: unknown; extensions?: unknown } | undefined;
  const id = body && typeof body === 'object' ? documentIdOf(body) : null;
  const query = typeof body?.query === 'string' ? body.query : id !== null ? documents?.get(id) : undefined;
  if (query === undefined) return null;
  try {
    const operationName = typeof body?.operationName === 'string' ? body.operationName : undefined;
    const document = parser.parse(query);
    return getOperationAST(document, operationName)?.operation === 'mutation' ? { document, operationName } : null;
  } catch {
    return null;
  }
}

export function hasGraphQLErrors(payload: string): boolean {
  try {
    return Array.isArray((JSON.parse(payload) as { errors?: unknown }).errors);
  } catch {
    return true;
  }
}
