import type { Span } from '@opentelemetry/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import type { AppError } from '../errors/index.ts';
import type { IdempotentRun } from '../services/idempotency/index.ts';
import type { Principal } from '../services/principal.ts';

/**
 * One exchange: a request as every guarantee past the edge reads it, whichever transport carried
 * it. Fastify's request is one as it stands (the edge's decorators give it what a transport-neutral
 * request has: use-http-edge.ts); a graphql-ws subscribe makes its own (graphql/mount-graphql-ws.ts).
 * Nothing past the edge reads a transport's own objects, and nothing fakes them.
 */
export interface Exchange {
  /** The request id: X-Request-Id over HTTP; a new one for each subscribe on a socket. */
  readonly id: string;
  /** GET, POST…; SUBSCRIBE for a socket's subscribe. */
  readonly method: string;
  /** The client's address (TRUST_PROXY honoured). */
  readonly ip: string;
  /** The credential as sent, for the words of a refusal. */
  readonly headers: { readonly authorization?: string };
  /** Its log lines carry its id. */
  readonly log: FastifyBaseLogger;
  /** Who calls: the credential's holder, or null (none sent, or refused: `authRefusal` says why where more can be said). */
  principal: Principal | null;
  authRefusal: AppError | null;
  /** Set while it holds an Idempotency-Key: its work runs in `idempotency.db`. */
  idempotency: IdempotentRun | null;
  /**
   * What it does to the data, once known: `read` (REST's GET and HEAD, a GraphQL query, a tool
   * that runs one) may be answered by a read replica; `write` marks its account (read-routing.ts);
   * null (not yet known, a subscription) reads the primary.
   */
  access: 'read' | 'write' | null;
  /** Where its reads run, once chosen (read-routing.ts). */
  reads: Kysely<Database> | null;
  /** Its server span, while tracing (http/logging/use-request-tracing.ts): named after what it ran, its id in the access line. */
  serverSpan: Span | null;
}

/** Where an exchange's answer takes headers a guarantee adds (a budget's count); none on a socket. */
export interface AnswerHeaders {
  header(name: string, value: string): unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The exchange's server span, while tracing (Exchange.serverSpan). */
    serverSpan: Span | null;
  }
}
