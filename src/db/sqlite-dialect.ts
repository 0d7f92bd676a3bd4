import SQLite from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, SqliteDriver } from 'kysely';
import type { DatabaseConnection, Driver, SqliteDialectConfig } from 'kysely';
import { DatabaseError } from './database-error.ts';
import type { DatabaseErrorKind } from './database-error.ts';

function kindOf(error: unknown): DatabaseErrorKind {
  if (!(error instanceof SQLite.SqliteError)) return 'failure';
  if (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'unique_violation';
  if (error.code.startsWith('SQLITE_CONSTRAINT')) return 'constraint_violation';
  if (error.code.startsWith('SQLITE_BUSY') || error.code.startsWith('SQLITE_LOCKED')) return 'busy';
  return 'failure';
}

// SQLite has no boolean type and better-sqlite3 refuses to bind one; store 1/0.
function bindable(query: CompiledQuery): CompiledQuery {
  if (!query.parameters.some((p) => typeof p === 'boolean')) return query;
  return { ...query, parameters: query.parameters.map((p) => (typeof p === 'boolean' ? Number(p) : p)) };
}

function translating(connection: DatabaseConnection): DatabaseConnection {
  return {
    async executeQuery(query) {
      try {
        return await connection.executeQuery(bindable(query));
      } catch (error) {
        throw new DatabaseError(kindOf(error), error);
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

class TranslatingSqliteDriver extends SqliteDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    return translating(await super.acquireConnection());
  }

  // Every transaction here writes. Taking the write lock at BEGIN means a second process
  // waits (busy_timeout) instead of failing when a read-then-write would upgrade its lock.
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Kysely's SQLite dialect, with driver errors turned into DatabaseError on the way out. */
export class PetstoreSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new TranslatingSqliteDriver(this.#config);
  }
}
