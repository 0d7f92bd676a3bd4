import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/load-config.ts';
import { openDatabase } from './db/connection.ts';
import type { OpenDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { MigrationOutcome, MigrationStatus } from './db/migrate.ts';
import { startDelivery } from './delivery/start-delivery.ts';
import { mountGraphQL } from './graphql/mount-graphql.ts';
import { watchManifest } from './config/watch-manifest.ts';
import { mountMcp } from './mcp/mount-mcp.ts';
import type { McpFace } from './mcp/mount-mcp.ts';
import { appVersion } from './config/version.ts';
import { createFastify } from './http/create-fastify.ts';
import { GRAPHQL_ROUTE, MCP_ROUTE } from './http/route-config.ts';
import type { LogStream } from './http/create-fastify.ts';
import { rateLimitChecks } from './http/limits/rate-limit-checks.ts';
import { clientAddressOf } from './http/limits/client-address.ts';
import { memoryRateLimiter } from './http/limits/rate-limiter.ts';
import { createRedisRateLimiter } from './http/limits/redis-rate-limiter.ts';
import { openResponseStore } from './http/caching/response-store.ts';
import { useHttpEdge } from './http/use-http-edge.ts';
import { localWriteMarks, redisWriteMarks, useReadRouting } from './http/read-routing.ts';
import { mountRest } from './rest/mount-rest.ts';
import { LARGE_REST_ANSWERS } from './rest/plugins/use-openapi.ts';
import { createTokenVerifier } from './services/access-tokens/token-verifier.ts';
import { createKeyVerifier } from './services/api-keys/index.ts';
import { createLiveFeed } from './services/live/live-feed.ts';
import { outboxBacklog } from './services/messages/index.ts';
import { metricsListener, stopScrapes } from './telemetry/metrics-listener.ts';
import type { Metrics } from './telemetry/metrics-types.ts';
import { operationNamesIn } from './telemetry/operation-names.ts';
import { startTelemetry } from './telemetry/start-telemetry.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the database's schema stood once the app was built (migrated, or found current). */
    schemaStatus: MigrationStatus;
    metrics: Metrics;
    /** GET /metrics, built but not listening (server.ts opens it on METRICS_PORT); null while metrics are off. */
    metricsListener: Server | null;
    /** Reads the trusted-document manifest again now (server.ts on SIGHUP); true if it changed. False without a manifest. */
    reloadManifest(): boolean;
  }
}

/** How often the manifest file's modification time is read: a deploy that replaces it takes effect within this. */
const MANIFEST_POLL_MS = 1000;

/** The face a route belongs to, as metrics and errors tell them apart. */
const faceOf = (route: string) => (route === GRAPHQL_ROUTE ? 'graphql' : route === MCP_ROUTE ? 'mcp' : 'rest');

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
  let migrated: MigrationOutcome;
  try {
    await database.check();
    const { db: migrating, ...where } = database.migrations;
    migrated = await migrateToLatest(migrating, { apply: config.migrateOnStart, ...where });
    await database.syncDataVersion();
  } catch (error) {
    await database.close();
    throw error;
  }
  const { metrics, tracing } = await startTelemetry(config, database, faceOf);
  const traced = tracing !== null;
  const verifier = createKeyVerifier(db, dataVersion, { onLookup: metrics.keyLookup });
  const { app, log } = createFastify(config, { logStream, metrics });
  const tokens = config.oidc
    ? createTokenVerifier(db, dataVersion, {
        ...config.oidc,
        onRefusal: metrics.tokenRefused,
        onIssuerUnreachable: (issuer, why) =>
          app.log.warn({ issuer, why }, 'access tokens: the issuer cannot be discovered; its tokens are refused (503) until it can'),
        onIssuerReached: (issuer) => app.log.info({ issuer }, 'access tokens: the issuer is reachable again'),
      })
    : null;
  const credentials = { keys: verifier, tokens };
  app.decorate('schemaStatus', migrated.status);
  app.decorate('metrics', metrics);
  app.decorate('metricsListener', metrics.enabled ? metricsListener(metrics) : null);
  if (migrated.applied.length > 0) app.log.info({ migrations: migrated.applied }, 'applied database migrations');
  if (migrated.status.newer.length > 0) {
    app.log.warn(
      { migrations: migrated.status.newer },
      "the database has migrations of a newer release; serving on its schema, which only added to this release's",
    );
  }
  const limiter = config.redis ? await createRedisRateLimiter({ ...config.redis, log: app.log }) : memoryRateLimiter();
  const limits = rateLimitChecks(limiter, config.rateLimit, metrics);
  metrics.observe({ rateLimitsOpen: limiter.open });
  if (!config.redis && database.engine === 'postgres' && config.rateLimit.perKey > 0) {
    app.log.warn(
      'rate limits are counted per instance: several instances on one PostgreSQL each allow the full budget; set REDIS_URL to share them',
    );
  }

  await useHttpEdge(app, { config, credentials, limits, tracing: traced, largeUnder: LARGE_REST_ANSWERS });
  const { replicas } = database;
  if (replicas) {
    const marks = config.redis ? redisWriteMarks(config.redis, replicas.markMs, app.log) : localWriteMarks(replicas.markMs);
    if (!config.redis) {
      app.log.warn(
        "read replicas without REDIS_URL: an account's writes are remembered by the instance that made them, so several instances may answer a writer from a replica that has not replayed its write yet; set REDIS_URL to share them",
      );
    }
    useReadRouting(app, { replicas, marks, primary: db, onChoice: metrics.reads });
    replicas.onChange(({ name, usable, lagBytes }) =>
      usable
        ? app.log.info({ replica: name }, 'read replica: answering reads')
        : app.log.warn(
            { replica: name, lagBytes },
            'read replica: passed over (away, promoted, or more than DATABASE_READ_MAX_LAG_MS behind)',
          ),
    );
    metrics.observe({ replicas: replicas.states });
    app.addHook('onClose', () => marks.close());
  }
  const live = createLiveFeed(db, {
    ...config.subscriptions,
    onError: (error) => app.log.warn({ err: error }, 'live updates: reading the database failed; retrying at the next poll'),
  });
  metrics.observe({ pool: database.poolStats, subscriptions: live.openCount, outbox: () => outboxBacklog(db) });
  app.onListenerClosed(() => live.close());
  app.addHook('preClose', () => live.close());
  const store = openResponseStore(config, app.log);
  if (store) metrics.observe({ responseCache: store.bytes });
  const operations = await mountGraphQL(app, {
    responseCache: store ? { store, maxEntryBytes: config.responseCache.maxEntryBytes } : null,
    db,
    live,
    verifier,
    credentials,
    socketLimits: {
      keyed: limits.keyed,
      keyless: limits.keyless,
      newAccount: (address) => limits.newAccount(address, null),
      addressOf: clientAddressOf(config.trustProxy),
      idleMs: config.subscriptions.socketIdleMs,
    },
    graphiql: config.graphiql,
    introspection: config.graphqlIntrospection,
    production: config.nodeEnv === 'production',
    trustedDocuments: config.trustedDocuments,
    jit: config.graphqlJit,
    federation: config.graphqlFederation,
    messageQuota: ({ exchange, answer }, count) => limits.message(exchange, answer, count),
    metrics,
    tracing: traced,
  });
  await mountRest(app, {
    db,
    verifier,
    config,
    limits,
    probe: database.probe,
    kept: store ? { store, maxEntryBytes: config.responseCache.maxEntryBytes, onLookup: metrics.responseCache } : null,
  });
  let mcp: McpFace | null = null;
  if (config.mcp) {
    const { version } = appVersion();
    mcp = await mountMcp(app, {
      runner: operations,
      live,
      config,
      db,
      metrics,
      serverInfo: { name: 'petstore-gateway', title: 'Petstore Gateway', version },
    });
  }

  // The manifest is reloaded without a restart: on SIGHUP (server.ts) and when its file changes.
  const manifestPath = config.trustedDocumentsPath;
  const manifest =
    config.trustedDocuments && manifestPath
      ? watchManifest(manifestPath, config.trustedDocuments, {
          pollMs: MANIFEST_POLL_MS,
          onReloaded: ({ added, removed }) => {
            app.log.info(
              { path: manifestPath, added: added.length, removed: removed.length },
              'trusted documents: the manifest was reloaded',
            );
            mcp?.reload();
            metrics.knowOperations(operationNamesIn(config.trustedDocuments));
          },
          onRefused: (problem) =>
            app.log.error(
              { path: manifestPath },
              `trusted documents: the manifest changed but is refused, the one in use is kept: ${problem}`,
            ),
        })
      : null;
  app.decorate('reloadManifest', () => manifest?.reload() ?? false);
  app.addHook('onClose', async () => manifest?.close());

  const worker = startDelivery(db, config.delivery, app.log.child({ component: 'delivery' }), { metrics, tracing: traced });
  app.addHook('onClose', async () => {
    if (app.metricsListener) await stopScrapes(app.metricsListener);
    metrics.close();
    await worker?.stop();
    await verifier.close();
    tokens?.close();
    await limiter.close();
    await store?.close();
    await database.close();
    // After the worker and the requests: their last spans are sent too.
    await tracing?.shutdown();
    // The last line: everything above is closed, nothing is lost by exiting now.
    app.log.info('stopped');
    log?.flushSync();
  });
  await app.ready();
  return app;
}
