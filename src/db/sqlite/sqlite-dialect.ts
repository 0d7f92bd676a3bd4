import SQLite from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, SqliteDriver } from 'kysely';
import type { DatabaseConnection, Driver, QueryResult } from 'kysely';
import { DatabaseError } from '../database-error.ts';
import type { DatabaseErrorKind } from '../database-error.ts';

function kindOf(error: unknown): DatabaseErrorKind {
  if (!(error instanceof SQLite.SqliteError)) return 'failure';
  if (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'unique_violation';
  if (error.code.startsWith('SQLITE_CONSTRAINT')) return 'constraint_violation';
  if (error.code.startsWith('SQLITE_BUSY') || error.code.startsWith('SQLITE_LOCKED')) return 'busy';
  return 'failure';
}

// SQLite has no boolean type and better-sqlite3 refuses to bind one; store 1/0.
function bindable(parameters: readonly unknown[]): unknown[] {
  return parameters.map((p) => (typeof p === 'boolean' ? Number(p) : p));
}

/** How many distinct statements stay prepared; the service layer issues a few dozen shapes. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Runs Kysely's queries on one better-sqlite3 handle. Kysely's own driver prepares every
 * statement on every call (the top cost in a profile); here a prepared statement is
 * kept per SQL text. Driver errors leave as DatabaseError, with no SQL in the message.
 */
class CachingConnection implements DatabaseConnection {
  readonly #db: SQLite.Database;
  readonly #statements = new Map<string, SQLite.Statement>();

  constructor(db: SQLite.Database) {
    this.#db = db;
  }

  #prepare(sql: string): SQLite.Statement {
    let statement = this.#statements.get(sql);
    if (statement) return statement;
    statement = this.#db.prepare(sql);
    if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value as string);
    this.#statements.set(sql, statement);
    return statement;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const statement = this.#prepare(query.sql);
      const parameters = bindable(query.parameters);
      if (statement.reader) return { rows: statement.all(parameters) as R[] };
      const { changes, lastInsertRowid } = statement.run(parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    } catch (error) {
      throw new DatabaseError(kindOf(error), error);
    }
  }

  // eslint-disable-next-line require-yield -- nothing here streams; Kysely requires the method
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new DatabaseError('failure', new Error('streaming is not used by this service'));
  }
}

class CachingSqliteDriver extends SqliteDriver {
  readonly #connection: CachingConnection;

  constructor(db: SQLite.Database) {
    super({ database: db });
    this.#connection = new CachingConnection(db);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    // Kysely's mutex still hands the single connection to one caller (or transaction) at a time.
    await super.acquireConnection();
    return this.#connection;
  }

  // Every transaction here writes. Taking the write lock at BEGIN means a second process
  // waits (busy_timeout) instead of failing when a read-then-write would upgrade its lock.
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Kysely's SQLite dialect with a statement cache, 1/0 booleans and dialect-neutral errors. */
export class PetstoreSqliteDialect extends SqliteDialect {
  readonly #db: SQLite.Database;

  constructor(db: SQLite.Database) {
    super({ database: db });
    this.#db = db;
  }

  override createDriver(): Driver {
    return new CachingSqliteDriver(this.#db);
  }
}
