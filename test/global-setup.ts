import { Redis } from 'ioredis';
import pg from 'pg';
import { ENGINE, TEST_DATABASE_URL } from './helpers/test-database.ts';
import { TEST_REDIS_URL } from './helpers/test-redis.ts';

/** With TEST_REDIS_URL set, Redis must answer (the run fails, never skips); without, one line says what did not run. */
async function checkRedis(): Promise<void> {
  if (TEST_REDIS_URL === '') {
    process.stdout.write(
      'Redis tests skipped: budgets shared across instances run with TEST_REDIS_URL=redis://127.0.0.1:6379 (CI sets it).\n',
    );
    return;
  }
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 5_000, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`TEST_REDIS_URL is set, but Redis cannot be reached: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  } finally {
    redis.disconnect();
  }
}

/**
 * Once per run, before any test: on PostgreSQL, the server must answer (a run that cannot reach
 * it fails, never skips); on SQLite, one line says the PostgreSQL run is not part of this one.
 * The same for Redis.
 */
export default async function setup(): Promise<void> {
  await checkRedis();
  if (ENGINE === 'sqlite') {
    process.stdout.write(
      'PostgreSQL run skipped: this run is on SQLite. Run the suite on PostgreSQL with npm run test:pg (or TEST_DATABASE_URL=postgres://… npm test).\n',
    );
    return;
  }
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    const url = new URL(TEST_DATABASE_URL);
    throw new Error(
      `TEST_DATABASE_URL is set, but PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname} cannot be reached: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  process.stdout.write(
    `Running on PostgreSQL (${new URL(TEST_DATABASE_URL).hostname}${new URL(TEST_DATABASE_URL).pathname}): every test app gets a schema of its own.\n`,
  );
}
