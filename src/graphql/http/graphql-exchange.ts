import type { FastifyRequest } from 'fastify';
import type { AppError } from '../../errors/index.ts';
import type { CacheSlot } from '../use-response-cache.ts';
import type { AnswerKind } from './answer-kind.ts';
import type { OperationRequest } from './operation-request.ts';

/**
 * What the GraphQL route works out of one request, once, and every guarantee on it reads: the
 * operation it asks for, how it is answered, where its answer is kept. It hangs on the request
 * itself (no table keyed by requests), made on first use.
 */
export interface GraphQLExchange {
  /** The request's one record of the operation it asks for (operation-request.ts), or the refusal of its parameters. */
  asked: OperationRequest | AppError | undefined;
  /** How it is answered (answer-kind.ts). */
  kind: AnswerKind | undefined;
  /** Where its answer is kept (use-response-cache.ts); null: nowhere. */
  slot: CacheSlot | null;
  /** The route ran it for a client that takes only a stream: its one result is framed as one. */
  framed: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    graphql: GraphQLExchange | null;
  }
}

/** The request's GraphQL record, made the first time anything asks. */
export function graphqlExchangeOf(req: FastifyRequest): GraphQLExchange {
  return (req.graphql ??= { asked: undefined, kind: undefined, slot: null, framed: false });
}
