// Type only: the module itself is loaded on demand, where GraphiQL is on.
import { GRAPHQL_ROUTE } from '../http/route-config.ts';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import type { LiveFeed } from '../services/live/live-feed.ts';
import type { GraphQLContext } from './context.ts';
import type { DocumentParser } from './parse-document.ts';
import type { GraphiQLPage } from './graphiql-page.ts';
import type { OperationCheck } from './checks/operation-check.ts';
import { useDocumentLimits } from './plugins/use-document-limits.ts';
import { useDocumentValidation } from './plugins/use-document-validation.ts';
import { useLogUnexpectedErrors } from './plugins/use-log-unexpected-errors.ts';
import { useMultipartSubscriptions } from './plugins/use-multipart-subscriptions.ts';
import { useOperationChecks } from './plugins/use-operation-checks.ts';
import { useOperationMetrics } from './plugins/use-operation-metrics.ts';
import { useSubscriptionRefusals } from './plugins/use-subscription-refusals.ts';
import { useTracing } from './plugins/use-tracing.ts';
import { useTrustedDocuments } from './plugins/use-trusted-documents.ts';
import { requestContext } from './request-context.ts';
import { trustedDocumentsPolicy } from './trusted-documents.ts';
import { yogaLogger } from './yoga-logger.ts';
import { NO_METRICS } from '../telemetry/metrics-types.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';

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
  /** Validates a document once, its errors coded (execution/document-validator.ts). */
  validate: (document: DocumentNode) => readonly GraphQLError[];
  /** The rules every operation passes before it runs (checks/): the key, the cost, the message quota. */
  checks: readonly OperationCheck[];
  /** GraphiQL, served at the endpoint to browsers; null: off. */
  graphiql?: GraphiQLPage | null;
  /** Production runs only trusted documents, where there are any. */
  production?: boolean;
  /** Trusted documents by id; in production, the only operations that run. */
  trustedDocuments?: ReadonlyMap<string, string> | null;
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
  validate,
  checks,
  graphiql = null,
  production = false,
  trustedDocuments = null,
  metrics = NO_METRICS,
  tracing = false,
}: GraphQLOptions): Promise<YogaServerInstance<ServerContext, GraphQLContext>> {
  type Context = GraphQLContext & ServerContext;
  const plugins: Plugin<Context>[] = [
    useTrustedDocuments<Context>(trustedDocumentsPolicy(production, trustedDocuments)),
    useDocumentLimits<Context>(documents),
    useDocumentValidation<Context>(validate),
    useOperationChecks<Context>(checks),
    useLogUnexpectedErrors<Context>(),
    useMultipartSubscriptions<Context>(),
    useSubscriptionRefusals<Context>(),
  ];
  if (metrics.enabled) plugins.push(useOperationMetrics<Context>(metrics));
  if (tracing) plugins.push(useTracing<Context>());

  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: GRAPHQL_ROUTE,
    context: ({ req, reply }) => requestContext(req, reply, db, live),
    maskedErrors: { maskError },
    batching: false,
    // Documents are remembered by `documents` (bounded by bytes), not by Yoga's cache of 1,024
    // texts of any size; validation results stay with each document (`validate`).
    parserAndValidationCache: false,
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
