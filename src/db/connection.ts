import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../config/load-config.ts';
import type { DataVersion } from './data-version.ts';
import type { Engine } from './engine.ts';
import { openPostgres } from './postgres/open-postgres.ts';
import { openSqlite } from './sqlite/open-sqlite.ts';
import type { Database } from './types.ts';

/** An open database: the Kysely instance the services take, and what only the engine can tell about it. */
export interface OpenDatabase {
  db: Kysely<Database>;
  /** Moves whenever a write that could make a verified key invalid may have been committed, here or elsewhere. */
  dataVersion: DataVersion;
  engine: Engine;
  /** Where, for messages: "PostgreSQL at host:5432/db", never a password. */
  label: string;
  /** Resolves once the database answers; else rejects with where and why, for a person to fix. */
  check(): Promise<void>;
}

/**
 * Opens the database DATABASE_URL names: PostgreSQL for a `postgres://` or `postgresql://`
 * URL, else a SQLite file. This is where the engine is chosen; nothing above src/db knows it.
 */
export function openDatabase(config: DatabaseConfig): OpenDatabase {
  return /^postgres(ql)?:\/\//i.test(config.url) ? openPostgres(config) : openSqlite(config);
}
