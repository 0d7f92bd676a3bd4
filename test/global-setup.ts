import pg from 'pg';
import { ENGINE, TEST_DATABASE_URL } from './helpers/test-database.ts';

/**
 * Once per run, before any test: on PostgreSQL, the server must answer (a run that cannot reach
 * it fails, never skips); on SQLite, one line says the PostgreSQL run is not part of this one.
 */
export default async function setup(): Promise<void> {
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
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  process.stdout.write(
    `Running on PostgreSQL (${new URL(TEST_DATABASE_URL).hostname}${new URL(TEST_DATABASE_URL).pathname}): every test app gets a schema of its own.\n`,
  );
}
