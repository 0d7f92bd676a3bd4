import SQLite from 'better-sqlite3';
import { CompiledQuery, SqliteAdapter, SqliteDialect, SqliteDriver, SqliteQueryCompiler } from 'kysely';
import type { DatabaseConnection, DialectAdapter, Driver, QueryCompiler, QueryResult } from 'kysely';
import { DatabaseError } from '../database-error.ts';
import type { DatabaseErrorKind } from '../database-error.ts';
import type { ObserverSlot } from '../statement-observer.ts';
import { ConnectionLock } from './connection-lock.ts';
import { memo } from '../../util/memo.ts';

function kindOf(error: unknown): DatabaseErrorKind {
  if (!(error instanceof SQLite.SqliteError)) return 'failure';
  if (error.code.startsWith('SQLITE_BUSY') || error.code.startsWith('SQLITE_LOCKED')) return 'busy';
  return 'failure';
}

// SQLite has no boolean type and better-sqlite3 refuses to bind one; store 1/0.
function bindable(parameters: readonly unknown[]): unknown[] {
  return parameters.map((p) => (typeof p === 'boolean' ? Number(p) : p));
}

/** Turns one row of a statement (an array) into an object. */
type ToRow = (values: readonly unknown[]) => Record<string, unknown>;

/** A prepared statement, and for one that reads, its `ToRow`. */
interface Prepared {
  statement: SQLite.Statement;
  toRow: ToRow | null;
}

/**
 * A statement's rows come from better-sqlite3 as arrays and become objects here: the driver's
 * own objects (built natively, property by property) cost a fifth more for a page of 21 pets
 * than arrays and a loop, measured side by side, and their shapes vary where these are alike.
 */
function prepared(db: SQLite.Database, sql: string): Prepared {
  const statement = db.prepare(sql);
  if (!statement.reader) return { statement, toRow: null };
  statement.raw(true);
  return { statement, toRow: rowBuilder(statement.columns().map((column) => column.name)) };
}

/**
 * One object literal per statement's columns, compiled once when the statement is prepared: a
 * loop storing `row[column] = value` goes through V8's megamorphic keyed store for every cell
 * (2.7 µs for a page of 21 pets of 10 columns, against 0.3 µs this way, measured side by side).
 * The names are SQLite's own for the statement's columns, quoted by JSON.stringify, and computed
 * (`["name"]:`), so even a column named `__proto__` is a property, never the prototype.
 */
function rowBuilder(columns: readonly string[]): ToRow {
  const properties = columns.map((column, i) => `[${JSON.stringify(column)}]: values[${i}]`);
  return new Function('values', `return { ${properties.join(', ')} };`) as ToRow;
}

/** How many distinct statements stay prepared; the service layer issues a few dozen shapes. */
const STATEMENT_CACHE_SIZE = 256;
/** The longest pause between two tries for a lock another process holds. */
const MAX_RETRY_PAUSE_MS = 50;

export interface SqliteDialectOptions {
  /** How long a statement waits for another process's write lock before it fails as busy (503). */
  lockTimeoutMs: number;
  /** Who watches the statements, if anyone (metrics, traces). */
  watch?: ObserverSlot;
}

/**
 * Runs Kysely's queries on one better-sqlite3 handle. Kysely's own driver prepares every
 * statement on every call (the top cost in a profile); here a prepared statement is kept per
 * SQL text. Driver errors leave as DatabaseError, with no SQL in the message.
 *
 * Waiting for a lock: better-sqlite3 runs on the event loop, and SQLite's own busy_timeout
 * sleeps inside the call, so a writer in another process (the CLI, a backup, a second server)
 * would stall every request. The handle has busy_timeout 0 instead: a statement that finds
 * the lock taken outside a transaction (a lone write, or the `begin immediate` every
 * transaction starts with) gives the connection to whoever waits for it, sleeps without
 * blocking, and tries again, up to the lock timeout. Reads (WAL) never wait for a writer.
 */
class CachingConnection implements DatabaseConnection {
  readonly #db: SQLite.Database;
  readonly #lock: ConnectionLock;
  readonly #lockTimeoutMs: number;
  readonly #watch: ObserverSlot;
  /** Prepared once per statement text: the list services build a few dozen texts at most. */
  readonly #prepare: (sql: string) => Prepared;

  constructor(db: SQLite.Database, lock: ConnectionLock, { lockTimeoutMs, watch = { observer: null } }: SqliteDialectOptions) {
    this.#db = db;
    this.#lock = lock;
    this.#lockTimeoutMs = lockTimeoutMs;
    this.#watch = watch;
    this.#prepare = memo((sql) => prepared(db, sql), STATEMENT_CACHE_SIZE);
  }

  #run<R>(query: CompiledQuery): QueryResult<R> {
    const { statement, toRow } = this.#prepare(query.sql);
    const parameters = bindable(query.parameters);
    if (toRow) return { rows: (statement.all(parameters) as unknown[][]).map((values) => toRow(values) as R) };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = this.runNow<R>(query);
    return result instanceof Promise ? result : Promise.resolve(result);
  }

  /**
   * The statement run at once: its result as a value, or, when another process holds SQLite's
   * lock (or it failed), a promise of the retries (or of the failure). The observer is told inside
   * this function, not around it: no promise is added per statement.
   */
  runNow<R>(query: CompiledQuery): QueryResult<R> | Promise<QueryResult<R>> {
    const done = this.#watch.observer?.start(query.sql);
    try {
      const result = this.#run<R>(query);
      done?.(false);
      return result;
    } catch (error) {
      return this.#retried<R>(query, error, done);
    }
  }

  /** After a first attempt failed with `error`: waits for another process's lock and tries again, for up to lockTimeoutMs. */
  async #retried<R>(query: CompiledQuery, error: unknown, done: ((failed: boolean) => void) | undefined): Promise<QueryResult<R>> {
    let deadline = 0;
    for (let attempt = 0; ; attempt++) {
      const kind = kindOf(error);
      // Inside a transaction the lock is ours already (begin immediate); busy there is not a wait.
      const waits = kind === 'busy' && !this.#db.inTransaction;
      if (waits) deadline ||= Date.now() + this.#lockTimeoutMs;
      const pause = waits ? Math.min(2 ** attempt, MAX_RETRY_PAUSE_MS, deadline - Date.now()) : 0;
      if (pause <= 0) {
        done?.(true);
        throw new DatabaseError(kind, error);
      }
      this.#watch.observer?.lockWait(pause / 1000);
      await this.#lock.pause(pause);
      try {
        const result = this.#run<R>(query);
        done?.(false);
        return result;
      } catch (again) {
        error = again;
      }
    }
  }

  // eslint-disable-next-line require-yield -- nothing here streams; Kysely requires the method
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new DatabaseError('failure', new Error('streaming is not used by this service'));
  }
}

class CachingSqliteDriver extends SqliteDriver {
  readonly #lock = new ConnectionLock();
  readonly #connection: CachingConnection;

  constructor(db: SQLite.Database, options: SqliteDialectOptions) {
    super({ database: db });
    this.#connection = new CachingConnection(db, this.#lock, options);
  }

  // One caller (or transaction) at a time, through a lock the connection can hand over while it waits.
  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.lock();
    return this.#connection;
  }

  override async releaseConnection(): Promise<void> {
    this.#lock.unlock();
  }

  /**
   * A statement run at once when no one holds the connection (direct-runs.ts), with the lock held
   * while it runs (a wait for another process's lock still hands it over); null when someone does.
   */
  runIfFree<R>(query: CompiledQuery<R>): QueryResult<R> | Promise<QueryResult<R>> | null {
    if (!this.#lock.tryLock()) return null;
    // runNow answers every failure as a rejected promise: between tryLock and here nothing throws.
    const result = this.#connection.runNow<R>(query);
    if (result instanceof Promise) return this.#releasedAfter(result);
    // Run and done in this call: the connection is free again before anyone else can ask.
    this.#lock.unlock();
    return result;
  }

  async #releasedAfter<R>(running: Promise<QueryResult<R>>): Promise<QueryResult<R>> {
    try {
      return await running;
    } finally {
      this.#lock.unlock();
    }
  }

  // Every transaction here writes. Taking the write lock at BEGIN means a second process
  // is waited for at the start instead of failing when a read-then-write would upgrade its lock.
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely (0.29+) puts its own mutex around the one connection of a dialect that says it has no
 * other: held from acquire to release, through a statement's wait for another process's lock,
 * so every read would queue behind a waiting write. The driver above serializes its callers
 * with a lock it hands over while it waits; Kysely's is not needed and must not be added.
 */
class OwnLockSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * Every parameter is written `+?`, never a bare `?`. SQLite (3.5x, as better-sqlite3 13 ships it)
 * lets a bound value steer the plan of some statements, a LIMIT's or a key's in a join, and then
 * marks the statement expired at every bind: better-sqlite3 binds at every run, so each run
 * parsed and planned the statement again (sqlite3Reprepare: half the SQLite time of a cached
 * GraphQL answer, on-CPU). `+?` is the same value with no affinity, as `?` is, and no longer a
 * bare parameter the planner reads; an index still serves `id = +?`.
 */
class PlainParameterCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}

/** Kysely's SQLite dialect with a statement cache, parameters that never make a statement compile again, waits for locks that do not block, 1/0 booleans and dialect-neutral errors. */
export class PetstoreSqliteDialect extends SqliteDialect {
  readonly #db: SQLite.Database;
  readonly #options: SqliteDialectOptions;
  #driver: CachingSqliteDriver | null = null;

  constructor(db: SQLite.Database, options: SqliteDialectOptions) {
    super({ database: db });
    this.#db = db;
    this.#options = options;
  }

  override createAdapter(): DialectAdapter {
    return new OwnLockSqliteAdapter();
  }

  override createQueryCompiler(): QueryCompiler {
    return new PlainParameterCompiler();
  }

  override createDriver(): Driver {
    this.#driver = new CachingSqliteDriver(this.#db, this.#options);
    return this.#driver;
  }

  /** See CachingSqliteDriver.runIfFree: null too before Kysely has made the driver. */
  runIfFree<R>(query: CompiledQuery<R>): QueryResult<R> | Promise<QueryResult<R>> | null {
    return this.#driver?.runIfFree(query) ?? null;
  }
}
