import { userInfo } from 'node:os';
import pg from 'pg';
import { Kysely } from 'kysely';
import type { DatabaseConfig } from '../../config/load-config.ts';
import type { OpenDatabase } from '../connection.ts';
import { KEY_CHANGES_POLL_MS } from '../data-version.ts';
import type { ObserverSlot } from '../statement-observer.ts';
import type { Database } from '../types.ts';
import { changesKeys } from './key-changes.ts';
import { PetstorePostgresDialect } from './postgres-dialect.ts';
import { connectFailureReason } from './postgres-errors.ts';

/** int8 (ids, counts) as a JS number; a value past 2^53−1 would be rounded, so it is an error instead. */
function parseSafeInt(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} is not a safe integer`);
  return value;
}

const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? parseSafeInt : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * The URL with a user name where it names none: the OS user, as libpq (psql) does. pg itself
 * only looks at $USER, which a service manager or container may not set.
 */
export function withDefaultUser(url: string): string {
  const parsed = new URL(url);
  if (parsed.username || process.env.PGUSER) return url;
  parsed.username = userInfo().username;
  return parsed.toString();
}

/** "PostgreSQL at host:port/database": where, never the user or the password. */
function describe(url: string): string {
  const parsed = new URL(url);
  return `PostgreSQL at ${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
}

/**
 * A PostgreSQL database at a `postgres://` URL. The data version that tells the key cache to
 * stop trusting is the `key_epoch` row (bumped by triggers when a key is revoked or an account
 * changes, migration 0006), polled every 250 ms, joined with this process's own key writes,
 * counted as they happen.
 */
export function openPostgres({ url, poolSize, statementTimeoutMs, lockTimeoutMs, connectTimeoutMs }: DatabaseConfig): OpenDatabase {
  const pool = new pg.Pool({
    connectionString: withDefaultUser(url),
    max: poolSize,
    connectionTimeoutMillis: connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeoutMs,
    lock_timeout: lockTimeoutMs,
    application_name: 'petstore-gateway',
    types,
  });
  // An idle client whose server went away emits here; the next query opens a fresh one.
  pool.on('error', () => undefined);

  let ownKeyWrites = 0;
  let epoch = '-';
  const readEpoch = () =>
    pool.query<{ epoch: number }>('select epoch from key_epoch').then(
      (result) => void (epoch = String(result.rows[0]?.epoch ?? '-')),
      // Before the migration that makes the table, or while the database is away: keep the last one.
      () => undefined,
    );
  const timer = setInterval(() => {
    if (pool.ended) return clearInterval(timer);
    void readEpoch();
  }, KEY_CHANGES_POLL_MS);
  timer.unref();

  const label = describe(url);
  const watch: ObserverSlot = { observer: null };
  const db = new Kysely<Database>({
    dialect: new PetstorePostgresDialect(pool, { afterQuery: (query) => void (changesKeys(query.query) && ownKeyWrites++), watch }),
  });
  return {
    db,
    dataVersion: () => `${epoch}:${ownKeyWrites}`,
    syncDataVersion: readEpoch,
    observe: (observer) => void (watch.observer = observer),
    poolStats: () => ({ used: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    engine: 'postgres',
    label,
    async check() {
      try {
        (await pool.connect()).release();
      } catch (error) {
        throw new Error(`cannot reach ${label} (DATABASE_URL): ${connectFailureReason(error)}.`, { cause: error });
      }
    },
    // pg_dump takes a consistent snapshot of a live database, and restores into any version at
    // least as new; a copy made here could do no better.
    backup: async () => {
      throw new Error(`${label} is backed up with pg_dump: see "Backup and restore" in docs/operations.md.`);
    },
    async close() {
      clearInterval(timer);
      await db.destroy();
      if (!pool.ending) await pool.end();
    },
  };
}
