import type { FastifyRequest } from 'fastify';
import type { DocumentNode } from 'graphql';
import { AppError } from '../errors/index.ts';
import type { OperationRequest } from './http/operation-request.ts';

/** A mutation a request runs: its parsed document and the operation's name. */
export interface MutationRequest {
  document: DocumentNode;
  operationName: string | undefined;
}

/**
 * The mutation a POSTed GraphQL request runs, read from the request's one record, or null: only
 * mutations take an Idempotency-Key. A request the route refuses before it runs (malformed, its
 * document refused or over a limit) is none.
 */
export function mutationRequest(request: FastifyRequest, asked: OperationRequest | AppError): MutationRequest | null {
  if (request.method !== 'POST' || asked instanceof AppError || asked.document instanceof Error) return null;
  return asked.operation?.operation === 'mutation' ? { document: asked.document, operationName: asked.params.operationName } : null;
}

export function hasGraphQLErrors(payload: string): boolean {
  try {
    return Array.isArray((JSON.parse(payload) as { errors?: unknown }).errors);
  } catch {
    return true;
  }
}
