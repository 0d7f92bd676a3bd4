import type { FastifyInstance } from 'fastify';
import { createApp } from './app.ts';
import type { Config } from './config/load-config.ts';
import { appVersion } from './config/version.ts';
import { openDatabase } from './db/connection.ts';
import { boundAddress } from './util/bound-address.ts';
import { listenForScrapes } from './telemetry/metrics-listener.ts';
import { anyUsableKey, ensureFirstKey } from './services/api-keys/index.ts';

const SHUTDOWN_GRACE_MS = 10_000;

/** Where a person on this machine reaches the server (0.0.0.0 is not an address to type). */
function localOrigin(app: FastifyInstance, config: Config): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = ['0.0.0.0', '::'].includes(config.host) ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** A listen failure in words a person can act on, naming the setting to change (PORT and HOST, or METRICS_PORT and METRICS_HOST). */
function listenFailure(error: unknown, { port, host }: { port: number; host: string }, setting: 'PORT' | 'METRICS_PORT' = 'PORT'): Error {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  const hostSetting = setting === 'PORT' ? 'HOST' : 'METRICS_HOST';
  const reasons: Record<string, string> = {
    EADDRINUSE: `port ${port} is already in use on ${host}. Stop the program using it, or pick another port: ${setting}=<port> (${setting}=0 takes any free port).`,
    EACCES: `this user may not listen on port ${port} (ports below 1024 need privileges). Pick another port: ${setting}=<port>.`,
    EADDRNOTAVAIL: `${hostSetting} ${host} is not an address of this machine. Use ${hostSetting}=0.0.0.0 (every interface) or ${hostSetting}=127.0.0.1.`,
    ENOTFOUND: `${hostSetting} ${host} does not resolve to an address. Use ${hostSetting}=0.0.0.0 (every interface) or ${hostSetting}=127.0.0.1.`,
  };
  const reason = reasons[code] ?? (error instanceof Error ? error.message : String(error));
  return new Error(`cannot start the ${setting === 'PORT' ? 'server' : 'metrics listener'}: ${reason}`, { cause: error });
}

// Lines for a person go to stderr: stdout carries only the JSON log lines, for log shippers.
function printFirstKey(app: FastifyInstance, config: Config, key: string): void {
  const origin = localOrigin(app, config);
  process.stderr.write(
    [
      '',
      'First start: created account "default" with this API key (shown once, not stored):',
      '',
      `  ${key}`,
      '',
      `  REST:     ${origin}/v1/pets`,
      `  Docs:     ${origin}/v1/docs`,
      ...(config.graphiql ? [`  GraphiQL: ${origin}/graphql`] : []),
      ...(config.mcp ? [`  MCP:      ${origin}/mcp`] : []),
      '',
      `  curl -H "Authorization: Bearer ${key}" ${origin}/v1/pets`,
      '',
    ].join('\n'),
  );
}

/**
 * Starts the server and stops it cleanly on SIGTERM or SIGINT: in-flight requests finish, the
 * database closes. The first-start key is made only once the server listens, so a start that
 * fails never makes a key that nobody sees.
 */
export async function serve(config: Config): Promise<FastifyInstance> {
  const database = openDatabase(config.database);
  const app = await createApp({ config, database });
  /** Listens with `listen`; a failure closes the app and says which setting to change. */
  const opening = async <T>(listen: () => Promise<T>, failure: (error: unknown) => Error): Promise<T> => {
    try {
      return await listen();
    } catch (error) {
      await app.close();
      throw failure(error);
    }
  };
  await opening(
    () => app.listen({ port: config.port, host: config.host }),
    (error) => listenFailure(error, config),
  );
  const { metricsListener } = app;
  const metricsPort = config.metrics.port;
  const metricsAddress =
    metricsListener && metricsPort !== null
      ? await opening(
          () => listenForScrapes(metricsListener, metricsPort, config.metrics.host),
          (error) => listenFailure(error, { port: metricsPort, host: config.metrics.host }, 'METRICS_PORT'),
        )
      : null;
  try {
    const first = config.nodeEnv === 'production' ? null : await ensureFirstKey(database.db);
    if (first) printFirstKey(app, config, first.key);
    // Production makes no key by itself: a server nobody can call says how to get one.
    else if (!(await anyUsableKey(database.db))) {
      app.log.warn('no usable API key exists yet: every request will be refused. Create one with: npx petstore keys create --account NAME');
    }
    const { version, revision } = appVersion();
    const { applied } = app.schemaStatus;
    const ready = {
      version,
      revision,
      engine: database.engine,
      migration: applied.at(-1)?.name ?? null,
      address: boundAddress(app.server),
      ...(metricsAddress ? { metrics: metricsAddress } : {}),
      tracing: config.tracing.exporter ?? 'off',
    };
    app.log.info(ready, 'ready');
    // One line for a person (and for scripts that wait on it): start-up, first key included, is done.
    process.stderr.write(
      `Petstore Gateway is ready at ${localOrigin(app, config)} (listening on ${ready.address}): ` +
        `version ${version} (revision ${revision}), ${database.label}, schema at ${ready.migration}` +
        `${metricsAddress ? `; metrics at http://${metricsAddress}/metrics` : ''}.\n`,
    );
  } catch (error) {
    await app.close();
    throw error;
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + config.shutdownDelayMs);
    force.unref();
    app.drainAndClose().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // SIGHUP (systemctl reload): the trusted-document manifest is read again; a broken one is refused and logged.
  const reload = () => {
    app.log.info('SIGHUP: reading the trusted-document manifest again');
    app.reloadManifest();
  };
  // Once the process goes, so does it; the SIGTERM and SIGINT handlers exit.
  process.on('SIGHUP', reload);
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return app;
}
