import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import type { AnswerHeaders, Exchange } from '../http/exchange.ts';
import { requestDb } from '../http/idempotency/idempotency-hooks.ts';
import type { LiveFeed } from '../services/live/live-feed.ts';
import type { GraphQLContext, ServerContext } from './context.ts';

/**
 * What the resolvers of a request's operation get, built here alone for every path that runs one
 * (the route's pipeline, which MCP's tools, graphql-ws and the HTTP streams run through too): the key
 * the edge checked, and, for a mutation with an Idempotency-Key, the request's transaction
 * (reads included: idempotency-hooks.ts).
 */
export function requestContext(
  exchange: Exchange,
  answer: AnswerHeaders | null,
  db: Kysely<Database>,
  live: LiveFeed,
): GraphQLContext & ServerContext {
  return {
    exchange,
    answer,
    db: requestDb(exchange, db),
    principal: exchange.principal,
    requestId: exchange.id,
    log: exchange.log,
    idempotent: exchange.idempotency != null,
    live,
  };
}
