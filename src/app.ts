import type { FastifyInstance } from 'fastify';
import type { Config } from './config/load-config.ts';
import { openDatabase } from './db/connection.ts';
import type { OpenDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import { startDelivery } from './delivery/start-delivery.ts';
import { mountGraphQL } from './graphql/mount-graphql.ts';
import { createFastify } from './http/create-fastify.ts';
import type { LogStream } from './http/create-fastify.ts';
import { rateLimitChecks } from './http/rate-limit-checks.ts';
import { createRateLimiter } from './http/rate-limiter.ts';
import { createRedisRateLimiter } from './http/redis-rate-limiter.ts';
import { useHttpEdge } from './http/use-http-edge.ts';
import { mountRest } from './rest/mount-rest.ts';
import { createKeyVerifier } from './services/api-keys/index.ts';
import { createLiveFeed } from './services/live/live-feed.ts';

export interface AppOptions {
  config: Config;
  /** An open database to serve from; the app owns it from here and closes it on close. Default: open `config.database`. */
  database?: OpenDatabase;
  /** Where log lines go; default stdout, in batches. */
  logStream?: LogStream;
}

/** Builds the whole server on the configured database, migrated, without listening. Closing it closes the database. */
export async function createApp({ config, database = openDatabase(config.database), logStream }: AppOptions): Promise<FastifyInstance> {
  const { db, dataVersion } = database;
  try {
    await database.check();
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const verifier = createKeyVerifier(db, dataVersion);
  const { app, log } = createFastify(config, logStream);
  const limiter = config.redis ? await createRedisRateLimiter({ ...config.redis, log: app.log }) : createRateLimiter();
  const limits = rateLimitChecks(limiter, config.rateLimit);
  if (!config.redis && database.engine === 'postgres' && config.rateLimit.perKey > 0) {
    app.log.warn(
      'rate limits are counted per instance: several instances on one PostgreSQL each allow the full budget; set REDIS_URL to share them',
    );
  }

  await useHttpEdge(app, { config, verifier, limits });
  const live = createLiveFeed(db, {
    ...config.subscriptions,
    onError: (error) => app.log.warn({ err: error }, 'live updates: reading the database failed; retrying at the next poll'),
  });
  app.onListenerClosed(() => live.close());
  app.addHook('preClose', () => live.close());
  await mountGraphQL(app, {
    db,
    live,
    verifier,
    graphiql: config.graphiql,
    introspection: config.graphqlIntrospection,
    production: config.nodeEnv === 'production',
    trustedDocuments: config.trustedDocuments,
    jit: config.graphqlJit,
    fastPath: config.graphqlFastPath,
    messageQuota: ({ req, reply }, count) => limits.message(req, reply, count),
  });
  await mountRest(app, { db, config, limits });

  const worker = startDelivery(db, config.delivery, app.log.child({ component: 'delivery' }));
  app.addHook('onClose', async () => {
    await worker?.stop();
    await verifier.close();
    await limiter.close();
    await db.destroy();
    log?.flushSync();
  });
  await app.ready();
  return app;
}
