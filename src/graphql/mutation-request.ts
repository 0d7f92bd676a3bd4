import { getOperationAST, parse } from 'graphql';
import type { FastifyRequest } from 'fastify';

/** Whether a POSTed GraphQL request runs a mutation: only those take an Idempotency-Key. Unparsable ones are left to Yoga. */
export function isMutationRequest(request: FastifyRequest): boolean {
  const body = request.body as { query?: unknown; operationName?: unknown } | undefined;
  if (typeof body?.query !== 'string') return false;
  try {
    const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
    return getOperationAST(parse(body.query), operationName)?.operation === 'mutation';
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
