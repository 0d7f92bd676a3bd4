import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors/index.ts';
import { asksForIncrements } from '../execution/incremental-delivery.ts';
import { graphqlExchangeOf } from './graphql-exchange.ts';
import { wantedAnswer } from './negotiate.ts';
import type { JsonType, StreamType } from './negotiate.ts';
import type { OperationRequest } from './operation-request.ts';

/**
 * How one request is answered: as JSON; its one result framed as a stream of one event (the
 * client takes only streams, the operation needs none); as a stream of many, of `type` (a
 * result that comes alone goes out as `json` where the client takes JSON); with GraphiQL's
 * page; or 406.
 */
export type AnswerKind =
  | { kind: 'json'; type: JsonType }
  | { kind: 'framed'; type: StreamType }
  | { kind: 'stream'; type: StreamType; json: JsonType | null }
  | { kind: 'page' }
  | { kind: 'none' };

export interface AnswerKindOptions {
  /** Whether the route serves GraphiQL to browsers (their GETs are pages, not queries). */
  withPage: boolean;
  /** The request's one record of the operation it asks for (operation-request.ts). */
  operationOf: (req: FastifyRequest) => OperationRequest | AppError;
}

/**
 * How each request is answered, worked out once per request whoever asks (the route, the
 * response cache): by its Accept header, and where it takes both JSON and a stream, by its
 * operation. A subscription, or a query that asks for increments (@defer, @stream), goes to a
 * stream; everything else to the one fast path, which also answers a query with @defer or
 * @stream whole to a client that takes only JSON, and frames its one result as SSE or multipart
 * for a client that takes only those (so a mutation, whose write and kept answer commit with the
 * answer, never runs as a stream). A request whose operation cannot be read is the fast path's
 * to refuse, in its words.
 */
export function answerKinds({ withPage, operationOf }: AnswerKindOptions): (req: FastifyRequest) => AnswerKind {
  const needsStream = (req: FastifyRequest): boolean => {
    const asked = operationOf(req);
    if (asked instanceof AppError || asked.document instanceof Error) return false;
    const type = asked.operation?.operation;
    return type === 'subscription' || (type === 'query' && asksForIncrements(asked.document));
  };
  return (req) => {
    const exchange = graphqlExchangeOf(req);
    if (exchange.kind) return exchange.kind;
    let kind: AnswerKind;
    const wanted = wantedAnswer(req.headers.accept, req.method, withPage);
    if (wanted.kind === 'json')
      kind =
        wanted.stream && needsStream(req)
          ? { kind: 'stream', type: wanted.stream, json: wanted.type }
          : { kind: 'json', type: wanted.type };
    else if (wanted.kind === 'stream')
      kind = needsStream(req) ? { kind: 'stream', type: wanted.type, json: null } : { kind: 'framed', type: wanted.type };
    else kind = wanted;
    exchange.kind = kind;
    return kind;
  };
}
