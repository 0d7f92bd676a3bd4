import cors from '@fastify/cors';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from './config/load-config.ts';
import { openDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Database } from './db/types.ts';
import { startDeliveryWorker } from './delivery/delivery-worker.ts';
import { logTransport } from './delivery/log-transport.ts';
import { webhookTransport } from './delivery/webhook-transport.ts';
import { mountGraphQL } from './graphql/mount-graphql.ts';
import { AccessLogController } from './http/access-log.ts';
import { bufferedStdout } from './http/log-destination.ts';
import { genRequestId } from './http/request-id.ts';
import { useGracefulDrain } from './http/use-graceful-drain.ts';
import { useRequestChecks } from './http/use-request-checks.ts';
import { useSecurityHeaders } from './http/use-security-headers.ts';
import { createRateLimiter } from './http/rate-limiter.ts';
import { clientErrorHandler, refuseConnect } from './http/client-error-handler.ts';
import { compileParamValidator } from './rest/param-validator.ts';
import { identifyAndCount, requireKey } from './http/use-authentication.ts';
import { idempotencyHooks } from './http/idempotency-hooks.ts';
import { isMutationRequest, hasGraphQLErrors } from './graphql/mutation-request.ts';
import { handleError, useErrorBody } from './http/error-handler.ts';
import { useMethodNotAllowed } from './http/use-method-not-allowed.ts';
import { useOpenApi } from './rest/plugins/use-openapi.ts';
import { rateLimitChecks } from './http/rate-limit-checks.ts';
import { healthRoutes } from './rest/routes/health.ts';
import { messagesRoutes } from './rest/routes/messages.ts';
import { petsRoutes } from './rest/routes/pets.ts';
import { storeOrdersRoutes } from './rest/routes/store-orders.ts';
import { NAMED_SCHEMAS } from './rest/schemas.ts';
import { createKeyVerifier } from './services/api-keys/index.ts';
import { strictAjv } from './services/validation/validator.ts';

export interface AppOptions {
  config: Config;
  /** An open database to serve from; the app owns it from here and closes it on close. Default: open `config.databaseUrl`. */
  db?: Kysely<Database>;
  /** Where log lines go; default stdout. */
  logStream?: { write(line: string): void };
}

const EXPOSED_HEADERS = [
  'Link',
  'Location',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-Request-Id',
  'Deprecation',
  'Sunset',
  'X-API-Stability',
];

/** Builds the whole server on the configured database, migrated, without listening. Closing it closes the database. */
export async function createApp({ config, db = openDatabase(config.databaseUrl), logStream }: AppOptions): Promise<FastifyInstance> {
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const verifier = createKeyVerifier(db);
  const limits = rateLimitChecks(createRateLimiter(), config.rateLimit);

  const buffered = logStream ? null : bufferedStdout();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // No request headers are logged; this keeps a key out of the log if one ever is.
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
      stream: logStream ?? buffered ?? undefined,
    },
    bodyLimit: 1024 * 1024,
    // The whole request, headers and body, must arrive within this time, else 408 (clientErrorHandler).
    requestTimeout: config.limits.requestTimeoutMs,
    http: {
      headersTimeout: config.limits.requestTimeoutMs,
      // How often node looks for requests past their time: the timeout's precision.
      connectionsCheckingInterval: Math.min(1000, config.limits.requestTimeoutMs),
      // Checked by useRequestChecks, which answers with the Error body; node's check answers with none.
      requireHostHeader: false,
    },
    genReqId: genRequestId,
    requestIdHeader: false,
    logController: new AccessLogController({ requestIdLogLabel: 'requestId' }),
    frameworkErrors: handleError,
    clientErrorHandler,
  });
  app.server.maxConnections = config.limits.maxConnections;
  app.server.on('connect', refuseConnect);
  app.decorateRequest('principal', null);
  app.decorateRequest('idempotency', null);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? strictAjv.compile(schema) : compileParamValidator(schema as Parameters<typeof compileParamValidator>[0]),
  );
  // JSON is the only body this API reads; anything else is refused with INVALID_CONTENT_TYPE.
  app.removeContentTypeParser('text/plain');
  useSecurityHeaders(app);
  useRequestChecks(app);
  app.addHook('onRequest', identifyAndCount({ verifier, rateLimit: limits.request }));
  useGracefulDrain(app);
  useErrorBody(app);
  useMethodNotAllowed(app);
  // CORS is off unless origins are listed; then preflight OPTIONS belongs to it, not to the 405s.
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    });
  }
  for (const [name, schema] of Object.entries(NAMED_SCHEMAS)) {
    app.addSchema({ $id: name, ...schema });
    // Bodies are validated by our own ajv (setValidatorCompiler), which resolves a route's `$ref` itself.
    if (!strictAjv.getSchema(name)) strictAjv.addSchema({ $id: name, ...schema });
  }

  await useOpenApi(app, config);
  await app.register(healthRoutes, { db });
  // GraphQL checks keys per operation: introspection alone is open so GraphiQL can load its docs.
  await mountGraphQL(
    app,
    {
      db,
      graphiql: config.graphiql,
      introspection: config.graphqlIntrospection,
      production: config.nodeEnv === 'production',
      messageQuota: ({ req, reply }, count) => limits.message(req, reply, count),
    },
    { idempotent: idempotencyHooks(db, { applies: isMutationRequest, succeeded: (payload) => !hasGraphQLErrors(payload) }) },
  );
  const idempotent = idempotencyHooks(db);
  await app.register(async (scope) => {
    scope.addHook('onRequest', requireKey);
    const linkBase = config.publicBaseUrl ?? '/v1';
    await scope.register(petsRoutes, { prefix: '/v1', db, linkBase, idempotent });
    await scope.register(storeOrdersRoutes, { prefix: '/v1', db, linkBase, idempotent });
    await scope.register(messagesRoutes, { db, idempotent, messageQuota: async (request, reply) => limits.message(request, reply) });
  });

  const { delivery } = config;
  const deliveryLog = app.log.child({ component: 'delivery' });
  const worker = delivery.enabled
    ? startDeliveryWorker({
        db,
        log: deliveryLog,
        transport: delivery.webhookUrl
          ? webhookTransport({ url: delivery.webhookUrl, timeoutMs: delivery.webhookTimeoutMs })
          : logTransport(deliveryLog),
        pollMs: delivery.pollMs,
        leaseMs: delivery.leaseMs,
        maxAttempts: delivery.maxAttempts,
        retryBaseMs: delivery.retryBaseMs,
      })
    : null;

  app.addHook('onClose', async () => {
    await worker?.stop();
    await verifier.close();
    await db.destroy();
    buffered?.flushSync();
  });
  await app.ready();
  return app;
}
