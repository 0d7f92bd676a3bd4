// Type only: the module itself is loaded on demand, where GraphiQL is on.
import { GRAPHQL_ROUTE } from '../http/route-config.ts';
import { requestDb } from '../http/idempotency/idempotency-hooks.ts';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import type { LiveFeed } from '../services/live/live-feed.ts';
import type { GraphQLContext } from './context.ts';
import type { DocumentParser } from './parse-document.ts';
import type { GraphiQLPage } from './graphiql-page.ts';
import { useDocumentLimits } from './plugins/use-document-limits.ts';
import { useLogUnexpectedErrors } from './plugins/use-log-unexpected-errors.ts';
import { useMessageQuota } from './plugins/use-message-quota.ts';
import { useMultipartSubscriptions } from './plugins/use-multipart-subscriptions.ts';
import { useOperationMetrics } from './plugins/use-operation-metrics.ts';
import { useNoIntrospection } from './plugins/use-no-introspection.ts';
import { useQueryCost } from './plugins/use-query-cost.ts';
import { useRequireKey } from './plugins/use-require-key.ts';
import { useSafeJit } from './plugins/use-safe-jit.ts';
import { useSubscriptionRefusals } from './plugins/use-subscription-refusals.ts';
import { useTracing } from './plugins/use-tracing.ts';
import { trustedDocumentsPolicy, useTrustedDocuments } from './plugins/use-trusted-documents.ts';
import { useValidationErrorShape } from './plugins/use-validation-error-shape.ts';
import { yogaLogger } from './yoga-logger.ts';
import type { MaybePromise } from '../http/maybe-promise.ts';
import { NO_METRICS } from '../telemetry/metrics-types.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';

const NOT_KEPT = { get: () => undefined, set: () => undefined };

export interface ServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface GraphQLOptions {
  db: Kysely<Database>;
  live: LiveFeed;
  log: FastifyBaseLogger;
  /** Parses every document within the limits, once (parse-document.ts). */
  documents: DocumentParser;
  /** The executable schema (petstore-schema.ts), built once by whoever also reads it. */
  schema: GraphQLSchema;
  /** The one boundary where errors get their public shape (mask-error.ts). */
  maskError: (error: unknown) => Error;
  /** Charges `count` messages to the caller's quota; throws RATE_LIMITED when fewer are left. */
  messageQuota?: (context: ServerContext, count: number) => MaybePromise<void>;
  /** GraphiQL, served at the endpoint to browsers; null: off. */
  graphiql?: GraphiQLPage | null;
  introspection?: boolean;
  /** Production hides "Did you mean …?" hints, which leak the schema when introspection is off. */
  production?: boolean;
  /** Trusted documents by id; in production, the only operations that run. */
  trustedDocuments?: ReadonlyMap<string, string> | null;
  /** Queries and mutations run compiled by graphql-jit (same answers; off to compare). */
  jit?: boolean;
  /** Operations and errors counted (use-operation-metrics.ts); nothing while metrics are off. */
  metrics?: Metrics;
  /** GraphQL's phases as spans (use-tracing.ts). */
  tracing?: boolean;
}

export async function createGraphQL({
  db,
  live,
  log,
  documents,
  schema,
  maskError,
  messageQuota,
  graphiql = null,
  introspection = true,
  production = false,
  trustedDocuments = null,
  jit = true,
  metrics = NO_METRICS,
  tracing = false,
}: GraphQLOptions): Promise<YogaServerInstance<ServerContext, GraphQLContext>> {
  type Context = GraphQLContext & ServerContext;
  const plugins: Plugin<Context>[] = [
    useTrustedDocuments<Context>(trustedDocumentsPolicy(production, trustedDocuments)),
    useDocumentLimits<Context>(documents),
    useValidationErrorShape<Context>({ production }),
    // The key before the cost: a caller without one is refused before the document is weighed.
    useRequireKey<Context>(),
    useQueryCost<Context>(),
    useLogUnexpectedErrors<Context>(),
  ];
  if (!introspection) plugins.push(useNoIntrospection<Context>());
  if (jit) plugins.push(useSafeJit<Context>());
  if (messageQuota) plugins.push(useMessageQuota<Context>(messageQuota));
  plugins.push(useMultipartSubscriptions<Context>(), useSubscriptionRefusals<Context>());
  if (metrics.enabled) plugins.push(useOperationMetrics<Context>(metrics));
  if (tracing) plugins.push(useTracing<Context>());

  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: GRAPHQL_ROUTE,
    // The key was checked by the route's onRequest hooks, with REST's code. A mutation with an
    // Idempotency-Key runs in its request's transaction, reads included (see idempotency-hooks.ts).
    context: ({ req }) => ({
      db: requestDb(req, db),
      principal: req.principal,
      requestId: req.id,
      log: req.log,
      idempotent: req.idempotency != null,
      live,
    }),
    maskedErrors: { maskError },
    batching: false,
    // Documents are remembered by `documents` (bounded by bytes), not by Yoga's cache of 1,024
    // texts of any size; validation results stay with each document.
    parserAndValidationCache: { documentCache: NOT_KEPT, errorCache: NOT_KEPT },
    // Fastify already bounds the body (the route's bodyLimit, 413). Yoga's own limit
    // would wrap every body in a TransformStream and a new Request, for nothing.
    maxRequestBodySize: false,
    // Only CORS_ORIGINS decides, through @fastify/cors on both faces.
    cors: false,
    landingPage: false,
    // The self-contained GraphiQL (no CDN: it works offline and behind strict networks), as a
    // small page and long-lived assets (graphiql-page.ts).
    graphiql: graphiql !== null,
    ...(graphiql ? { renderGraphiQL: () => graphiql.html() } : {}),
    logging: yogaLogger(log),
    plugins,
  });
}
