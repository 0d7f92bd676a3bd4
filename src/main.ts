import type { FastifyInstance } from 'fastify';
import { createApp } from './app.ts';
import type { Config } from './config/load-config.ts';
import { openDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import { ensureFirstKey } from './services/api-keys/index.ts';

const SHUTDOWN_GRACE_MS = 10_000;

/** Where a person on this machine reaches the server (0.0.0.0 is not an address to type). */
function localOrigin(app: FastifyInstance, config: Config): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = ['0.0.0.0', '::'].includes(config.host) ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}


/** Starts the server and stops it cleanly on SIGTERM or SIGINT: in-flight requests finish, the database closes. */
export async function serve(config: Config): Promise<FastifyInstance> {
  const db = openDatabase(config.databaseUrl);
  let key: string | null = null;
  try {
    await migrateToLatest(db);
    if (config.nodeEnv !== 'production') key = (await ensureFirstKey(db))?.key ?? null;
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const app = await createApp({ config, db });
  await app.listen({ port: config.port, host: config.host });

  if (key) {
    const origin = localOrigin(app, config);
    process.stdout.write(
      [
        '',
        'First start: created account "default" with this API key (shown once, not stored):',
        '',
        `  ${key}`,
        '',
        `  REST:     ${origin}/v1/pets`,
        `  Docs:     ${origin}/v1/docs`,
        ...(config.graphiql ? [`  GraphiQL: ${origin}/graphql`] : []),
        '',
        `  curl -H "Authorization: Bearer ${key}" ${origin}/v1/pets`,
        '',
      ].join('\n'),
    );
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app.drainAndClose().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return app;
}
