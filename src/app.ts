import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { Ajv } from 'ajv';
import type { Kysely } from 'kysely';
import type { Config } from './config/load-config.ts';
import { openDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Database } from './db/types.ts';
import { startDeliveryWorker } from './delivery/delivery-worker.ts';
import { logTransport } from './delivery/log-transport.ts';
import { webhookTransport } from './delivery/webhook-transport.ts';
import { mountGraphQL } from './graphql/mount-graphql.ts';
import { createKeyVerifier } from './services/api-keys/index.ts';
import { strictAjv } from './services/validation/validator.ts';
import { useBearerAuth } from './rest/plugins/use-bearer-auth.ts';
import { handleError, useErrorBody } from './rest/plugins/use-error-body.ts';
import { useMethodNotAllowed } from './rest/plugins/use-method-not-allowed.ts';
import { useOpenApi } from './rest/plugins/use-openapi.ts';
import { errorBodySchema } from './rest/schemas.ts';
import { healthRoutes } from './rest/routes/health.ts';
import { messagesRoutes } from './rest/routes/messages.ts';
import { petsRoutes } from './rest/routes/pets.ts';
import { storeOrdersRoutes } from './rest/routes/store-orders.ts';

export interface AppOptions {
  config: Config;
  /** An open database to serve from; the app owns it from here and closes it on close. Default: open `config.databaseUrl`. */
  db?: Kysely<Database>;
  /** Where log lines go; default stdout. */
  logStream?: { write(line: string): void };
}

// Query strings and path parameters arrive as text, so they are coerced ("20" → 20);
// bodies are JSON and are not ("20" is not an integer).
const paramAjv = new Ajv({ coerceTypes: true, useDefaults: true, removeAdditional: false, allErrors: false });

/** Builds the whole server on the configured database, migrated, without listening. Closing it closes the database. */
export async function createApp({ config, db = openDatabase(config.databaseUrl), logStream }: AppOptions): Promise<FastifyInstance> {
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const verifier = createKeyVerifier(db);

  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization'], ...(logStream ? { stream: logStream } : {}) },
    bodyLimit: 1024 * 1024,
    frameworkErrors: handleError,
  });
  app.decorateRequest('principal', null);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strictAjv : paramAjv).compile(schema));
  // JSON is the only body this API reads; anything else is refused with INVALID_CONTENT_TYPE.
  app.removeContentTypeParser('text/plain');
  useErrorBody(app);
  const methodNotAllowed = useMethodNotAllowed(app);
  app.addSchema(errorBodySchema);

  await useOpenApi(app, config);
  await app.register(healthRoutes, { db });
  // GraphQL checks keys itself: introspection alone is open so GraphiQL can load its docs.
  mountGraphQL(app, {
    db,
    verifier,
    graphiql: config.graphiql,
    introspection: config.graphqlIntrospection,
    production: config.nodeEnv === 'production',
  });
  await app.register(async (scope) => {
    useBearerAuth(scope, verifier);
    const linkBase = config.publicBaseUrl ?? '/v1';
    await scope.register(petsRoutes, { prefix: '/v1', db, linkBase });
    await scope.register(storeOrdersRoutes, { prefix: '/v1', db, linkBase });
    await scope.register(messagesRoutes, { db });
  });
  methodNotAllowed.close();

  const { delivery } = config;
  const worker = delivery.enabled
    ? startDeliveryWorker({
        db,
        log: app.log.child({ component: 'delivery' }),
        transport: delivery.webhookUrl
          ? webhookTransport({ url: delivery.webhookUrl, timeoutMs: delivery.webhookTimeoutMs })
          : logTransport(app.log.child({ component: 'delivery' })),
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
  });
  await app.ready();
  return app;
}
