import type pg from 'pg';
import { CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type {
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { DatabaseError } from '../database-error.ts';
import type { ObserverSlot } from '../statement-observer.ts';
import { inlineParameters } from './inline-parameters.ts';
import { postgresErrorKind } from './postgres-errors.ts';

/** Named statements kept per process; past this, statements run unnamed (parsed every time). */
const MAX_NAMED_STATEMENTS = 500;
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** The timeouts a transaction sets for itself behind a transaction pooler, where a session keeps nothing. */
export interface PooledTimeouts {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
}

export interface PostgresDriverHooks {
  /** Called after each successful query, with what Kysely built: the data version watches key writes. */
  afterQuery(query: CompiledQuery): void;
  /** Who watches the statements, if anyone (metrics, traces). */
  watch: ObserverSlot;
  /** Behind a transaction pooler (DATABASE_POOLER=transaction): the timeouts each transaction sets; null on a direct connection. */
  pooled: PooledTimeouts | null;
  /** Told when a connection cannot be had or broke (a read replica is then passed over at once). */
  unavailable?: () => void;
}

/** `set local` of both timeouts: they last until the transaction that runs them ends, on whichever server connection it got. */
const setTimeouts = ({ statementTimeoutMs, lockTimeoutMs }: PooledTimeouts) =>
  `set local statement_timeout = ${Math.trunc(statementTimeoutMs)}; set local lock_timeout = ${Math.trunc(lockTimeoutMs)}`;

type Result = pg.QueryResult<pg.QueryResultRow>;

/**
 * One pooled client. On a direct connection statements are named, so PostgreSQL parses and
 * plans each shape once per connection rather than on every call, and the timeouts are the
 * session's (startup parameters). Behind a transaction pooler a session keeps nothing between
 * transactions and its server connection changes under it: no statement has a name (two
 * processes' names would meet on one server connection), and every transaction sets its
 * timeouts itself; a statement outside one goes with them in one message of the simple
 * protocol, its parameters as literals (one round trip, as on a direct connection). Driver
 * errors leave as DatabaseError, and a client whose connection broke is destroyed on release
 * rather than handed out again.
 */
class PostgresConnection implements DatabaseConnection {
  broken = false;
  /** Between BEGIN and COMMIT or ROLLBACK: statements then run on the transaction's server connection. */
  inTransaction = false;

  constructor(
    readonly client: pg.PoolClient,
    private readonly names: Map<string, string>,
    private readonly hooks: PostgresDriverHooks,
  ) {}

  /** What pg answers for `query`: named on a direct connection, with the timeouts in one message behind a pooler outside a transaction. */
  #run(query: CompiledQuery): Promise<Result> {
    const { pooled } = this.hooks;
    if (!pooled) {
      const name = query.parameters.length > 0 ? this.#name(query.sql) : undefined;
      return this.client.query({ text: query.sql, values: [...query.parameters], ...(name ? { name } : {}) });
    }
    if (this.inTransaction) return this.client.query({ text: query.sql, values: [...query.parameters] });
    // Several statements in one simple-protocol message run as one implicit transaction, so the
    // set local lasts exactly as long as the statement it comes with. pg answers each: the last is the statement's.
    const text = `${setTimeouts(pooled)}; ${inlineParameters(query.sql, query.parameters)}`;
    return this.client.query(text).then((results: Result | Result[]) => (Array.isArray(results) ? (results.at(-1) as Result) : results));
  }

  #name(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (!name && this.names.size < MAX_NAMED_STATEMENTS) this.names.set(sql, (name = `petstore_${this.names.size + 1}`));
    return name;
  }

  // The observer is told inside this function, not around it: no promise is added per statement.
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const done = this.hooks.watch.observer?.start(query.sql);
    try {
      const result = await this.#run(query);
      done?.(false);
      this.hooks.afterQuery(query);
      return {
        rows: (result.rows ?? []) as R[],
        ...(WRITES.has(result.command) ? { numAffectedRows: BigInt(result.rowCount ?? 0) } : {}),
      };
    } catch (error) {
      done?.(true);
      const kind = postgresErrorKind(error);
      if (kind === 'unavailable') {
        this.broken = true;
        this.hooks.unavailable?.();
      }
      throw new DatabaseError(kind, error);
    }
  }

  /** Statements without parameters, answering the command PostgreSQL reports for the first (COMMIT may report ROLLBACK). */
  async command(text: string, observed = text): Promise<string> {
    const done = this.hooks.watch.observer?.start(observed);
    try {
      const results: Result | Result[] = await this.client.query(text);
      done?.(false);
      return (Array.isArray(results) ? results[0] : results)?.command ?? '';
    } catch (error) {
      done?.(true);
      const kind = postgresErrorKind(error);
      if (kind === 'unavailable') this.broken = true;
      throw new DatabaseError(kind, error);
    }
  }

  // eslint-disable-next-line require-yield -- nothing here streams; Kysely requires the method
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new DatabaseError('failure', new Error('streaming is not used by this service'));
  }
}

/** Savepoint names come from in-transaction.ts; checked anyway, since they are spliced into SQL. */
function savepointName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new DatabaseError('failure', new Error(`bad savepoint name ${name}`));
  return name;
}

class PostgresDriver implements Driver {
  readonly #connections = new WeakMap<pg.PoolClient, PostgresConnection>();
  readonly #names = new Map<string, string>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly hooks: PostgresDriverHooks,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      const kind = postgresErrorKind(error);
      if (kind === 'unavailable') this.hooks.unavailable?.();
      throw new DatabaseError(kind, error);
    }
    let connection = this.#connections.get(client);
    if (!connection) {
      const created = new PostgresConnection(client, this.#names, this.hooks);
      // A connection that dies while checked out (between a transaction's statements) reports
      // here; pg's pool listens only while a client is idle. It is destroyed on release.
      client.on('error', () => void (created.broken = true));
      this.#connections.set(client, (connection = created));
    }
    connection.broken = false;
    connection.inTransaction = false;
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const postgres = connection as PostgresConnection;
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    const { pooled } = this.hooks;
    // BEGIN, as SQLite's: statements are counted and traced by their first word on both engines.
    // Behind a pooler the transaction's timeouts come in the same message.
    if (pooled) await postgres.command(`begin${isolation}; ${setTimeouts(pooled)}`, `begin${isolation}`);
    else await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
    postgres.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const postgres = connection as PostgresConnection;
    // A transaction in which a statement failed cannot commit: PostgreSQL answers COMMIT by
    // rolling back, without an error. Said out loud here, so nothing reports a write that is gone.
    try {
      if ((await postgres.command('commit')) === 'ROLLBACK') {
        throw new DatabaseError('failure', new Error('the transaction was rolled back: a statement in it had failed'));
      }
    } finally {
      postgres.inTransaction = false;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${savepointName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${savepointName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${savepointName(name)}`));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      (connection as PostgresConnection).inTransaction = false;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const postgres = connection as PostgresConnection;
    // A broken client is destroyed, so the pool opens a fresh one when the database is back.
    postgres.client.release(postgres.broken);
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

/** Kysely's PostgreSQL dialect on our driver: named statements (none behind a pooler), neutral errors, key-write hooks. */
export class PetstorePostgresDialect implements Dialect {
  constructor(
    private readonly pool: pg.Pool,
    private readonly hooks: PostgresDriverHooks,
  ) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PostgresDriver(this.pool, this.hooks);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}
