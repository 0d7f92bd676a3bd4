import { userInfo } from 'node:os';
import pg from 'pg';
import { CompiledQuery, Kysely } from 'kysely';
import type { DatabaseConfig } from '../../config/load-config.ts';
import type { OpenDatabase } from '../connection.ts';
import { KEY_CHANGES_POLL_MS } from '../data-version.ts';
import type { ObserverSlot } from '../statement-observer.ts';
import type { Database } from '../types.ts';
import { advanceIds } from './advance-ids.ts';
import { changesKeys } from './key-changes.ts';
import { PetstorePostgresDialect } from './postgres-dialect.ts';
import { connectFailureReason } from './postgres-errors.ts';
import { watchReplicas } from './read-replicas.ts';
import type { Replica } from './read-replicas.ts';

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
export function openPostgres({
  url,
  poolSize,
  statementTimeoutMs,
  lockTimeoutMs,
  connectTimeoutMs,
  pooler,
  migrationUrl,
  readUrls,
  readMaxLagMs,
}: DatabaseConfig): OpenDatabase {
  const direct = pooler === 'none';
  const poolOf = (at: string, max: number, startupTimeouts = direct || at !== url) => {
    const created = new pg.Pool({
      connectionString: withDefaultUser(at),
      max,
      connectionTimeoutMillis: connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      // On PostgreSQL itself the timeouts are the session's, from its start; a transaction
      // pooler refuses them there (PgBouncer: unsupported startup parameter), so each transaction sets them.
      ...(startupTimeouts ? { statement_timeout: statementTimeoutMs, lock_timeout: lockTimeoutMs } : {}),
      application_name: 'petstore-gateway',
      types,
    });
    // An idle client whose server went away emits here; the next query opens a fresh one.
    created.on('error', () => undefined);
    return created;
  };
  const pool = poolOf(url, poolSize);

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
    dialect: new PetstorePostgresDialect(pool, {
      afterQuery: (query) => void (changesKeys(query.query) && ownKeyWrites++),
      watch,
      pooled: direct ? null : { statementTimeoutMs, lockTimeoutMs },
    }),
  });
  // Behind a pooler, migrations run on PostgreSQL itself: their session advisory lock needs one session.
  const migrationPool = !direct && migrationUrl ? poolOf(migrationUrl, 2) : null;
  // Replicas are reached as the primary is (directly, or through a pooler of their own), with the same timeouts.
  const replicaList: Replica[] = readUrls.map((at) => {
    const replicaPool = poolOf(at, poolSize, direct);
    const replica: Replica = {
      name: describe(at).replace(/^PostgreSQL at /, ''),
      pool: replicaPool,
      db: new Kysely<Database>({
        dialect: new PetstorePostgresDialect(replicaPool, {
          afterQuery: () => undefined,
          watch,
          pooled: direct ? null : { statementTimeoutMs, lockTimeoutMs },
          unavailable: () => replicas?.broke(replica),
        }),
      }),
    };
    return replica;
  });
  const replicas = replicaList.length > 0 ? watchReplicas(pool, replicaList, { maxLagMs: readMaxLagMs }) : null;
  const migrationDb = migrationPool
    ? new Kysely<Database>({ dialect: new PetstorePostgresDialect(migrationPool, { afterQuery: () => undefined, watch, pooled: null }) })
    : null;

  /**
   * Whether statements run here as requests run them: one with parameters (named on a direct
   * connection, inlined behind a pooler), with the statement and lock timeouts in force. A pooler
   * that ignores startup parameters would leave them unset, silently: that is an error too.
   */
  const probe = async (): Promise<void> => {
    const { rows } = await db.executeQuery<{ applied: boolean }>(
      CompiledQuery.raw(
        "select current_setting('statement_timeout')::interval = $1::interval and current_setting('lock_timeout')::interval = $2::interval as applied",
        [`${statementTimeoutMs}ms`, `${lockTimeoutMs}ms`],
      ),
    );
    if (rows[0]?.applied !== true) {
      throw new Error(
        `the statement and lock timeouts (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_LOCK_TIMEOUT_MS) do not apply on connections to ${label}: ` +
          'a pooler that ignores startup parameters (PgBouncer with ignore_startup_parameters)? Behind a pooler in transaction mode, set DATABASE_POOLER=transaction.',
      );
    }
  };
  return {
    db,
    dataVersion: () => `${epoch}:${ownKeyWrites}`,
    replicas,
    syncDataVersion: readEpoch,
    observe: (observer) => void (watch.observer = observer),
    poolStats: () => ({ used: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    engine: 'postgres',
    label,
    migrations: direct
      ? { db, lock: true, refusal: null }
      : migrationDb
        ? { db: migrationDb, lock: true, refusal: null }
        : {
            db,
            lock: false,
            refusal:
              'behind a transaction pooler (DATABASE_POOLER=transaction) migrations run on PostgreSQL itself, where their lock holds: set DATABASE_MIGRATION_URL to it (not to the pooler), or apply them with `DATABASE_URL=<PostgreSQL itself> petstore migrate`',
          },
    async check() {
      try {
        (await pool.connect()).release();
      } catch (error) {
        throw new Error(`cannot reach ${label} (DATABASE_URL): ${connectFailureReason(error)}.`, { cause: error });
      }
      if (migrationPool) {
        try {
          (await migrationPool.connect()).release();
        } catch (error) {
          throw new Error(`cannot reach ${describe(migrationUrl ?? '')} (DATABASE_MIGRATION_URL): ${connectFailureReason(error)}.`, {
            cause: error,
          });
        }
      }
      await probe();
    },
    probe,
    advanceIds: (by) => advanceIds(db, by),
    // pg_dump takes a consistent snapshot of a live database, and restores into any version at
    // least as new; a copy made here could do no better.
    backup: async () => {
      throw new Error(`${label} is backed up with pg_dump: see "Backup and restore" in docs/operations.md.`);
    },
    async close() {
      clearInterval(timer);
      await replicas?.close();
      await db.destroy();
      if (!pool.ending) await pool.end();
      await migrationDb?.destroy();
      if (migrationPool && !migrationPool.ending) await migrationPool.end();
    },
  };
}
