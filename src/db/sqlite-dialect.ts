import SQLite from 'better-sqlite3';
import { SqliteDialect, SqliteDriver } from 'kysely';
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

function translating(connection: DatabaseConnection): DatabaseConnection {
  return {
    async executeQuery(query) {
      try {
        return await connection.executeQuery(query);
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
