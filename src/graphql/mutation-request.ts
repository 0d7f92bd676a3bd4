import { getOperationAST } from 'graphql';
import type { FastifyRequest } from 'fastify';
import type { DocumentParser } from './parse-document.ts';
import { documentIdOf } from './trusted-document-id.ts';

/**
 * Whether a POSTed GraphQL request runs a mutation, sent as text or as a trusted document's id:
 * only those take an Idempotency-Key. Documents that do not parse within the limits are left to Yoga to refuse.
 */
export function isMutationRequest(
  request: FastifyRequest,
  parser: DocumentParser,
  documents: ReadonlyMap<string, string> | null = null,
): boolean {
  const body = request.body as { query?: unknown; operationName?: unknown; documentId?: unknown; extensions?: unknown } | undefined;
  const id = body && typeof body === 'object' ? documentIdOf(body) : null;
  const query = typeof body?.query === 'string' ? body.query : id !== null ? documents?.get(id) : undefined;
  if (query === undefined) return false;
  try {
    const operationName = typeof body?.operationName === 'string' ? body.operationName : undefined;
    return getOperationAST(parser.parse(query), operationName)?.operation === 'mutation';
  } catch {
    return false;
  }
}

export function hasGraphQLErrors(payload: string): boolean {
  try {
    return Array.isArray((JSON.parse(payload) as { errors?: unknown }).errors);
  } catch {
    return true;
  }
}
