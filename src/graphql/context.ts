import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import type { AnswerHeaders, Exchange } from '../http/exchange.ts';
import type { Principal } from '../services/api-keys/index.ts';
import type { LiveFeed } from '../services/live/live-feed.ts';

/** What every resolver gets: the same database and principal REST routes use. */
export interface GraphQLContext {
  db: Kysely<Database>;
  /** The verified key's owner; null when no valid key was sent (only introspection gets that far). */
  principal: Principal | null;
  requestId: string;
  log: FastifyBaseLogger;
  /** The request holds an Idempotency-Key: its answer is kept for replays. */
  idempotent: boolean;
  /** Where subscriptions get their events. */
  live: LiveFeed;
}

/** The exchange an operation runs for, beside what its resolvers get, and where its answer takes headers (none on a socket). */
export interface ServerContext {
  exchange: Exchange;
  answer: AnswerHeaders | null;
}
