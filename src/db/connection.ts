import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../config/load-config.ts';
import type { DataVersion } from './data-version.ts';
import type { Engine } from './engine.ts';
import { openPostgres } from './postgres/open-postgres.ts';
import type { AdvancedIds } from './postgres/advance-ids.ts';
import type { ReadReplicas } from './postgres/read-replicas.ts';
import { openSqlite } from './sqlite/open-sqlite.ts';
import type { StatementObserver } from './statement-observer.ts';
import type { Database } from './types.ts';

/** An open database: the Kysely instance the services take, and what only the engine can tell about it. */
export interface OpenDatabase {
  db: Kysely<Database>;
  /** Moves whenever a write that could make a verified key invalid may have been committed, here or elsewhere. */
  dataVersion: DataVersion;
  /**
   * Reads the data version now rather than at its next poll. The server calls it once the schema
   * is in place, so the keys its first requests verify are not read again when that poll lands.
   */
  syncDataVersion(): Promise<void>;
  engine: Engine;
  /** PostgreSQL's streaming replicas that answer reads (DATABASE_READ_URLS); null: every read on the primary. */
  replicas: ReadReplicas | null;
  /** Where, for messages: "PostgreSQL at host:5432/db", never a password. */
  label: string;
  /** Resolves once the database answers as requests use it; else rejects with where and why, for a person to fix. */
  check(): Promise<void>;
  /** Readiness: a statement runs as requests run theirs (parameters, timeouts in force); rejects otherwise. */
  probe(): Promise<void>;
  /**
   * Where migrations run and whether they take their lock: the database itself; behind a
   * transaction pooler, PostgreSQL itself at DATABASE_MIGRATION_URL, or, without one, only a
   * check (`refusal` says why nothing can be applied there).
   */
  migrations: { db: Kysely<Database>; lock: boolean; refusal: string | null };
  /** Who watches every statement from now on (metrics, traces); one at a time. */
  observe(observer: StatementObserver): void;
  /** PostgreSQL's pool: connections in use and idle, and callers waiting for one; absent on SQLite. */
  poolStats?: () => { used: number; idle: number; waiting: number };
  /**
   * Moves every id sequence `by` past anything handed out (PostgreSQL, after promoting an
   * asynchronous standby: postgres/advance-ids.ts); SQLite, which has no standby, refuses.
   */
  advanceIds(by: number): Promise<AdvancedIds[]>;
  /** A consistent copy in a new file at `target`, while others keep writing (SQLite); PostgreSQL refuses: pg_dump is its tool. */
  backup(target: string): Promise<void>;
  /**
   * Closes every connection and stops the polls, whether or not a statement ever ran through
   * `db` (Kysely's own destroy skips a driver it never started, and left a pool open).
   */
  close(): Promise<void>;
}

/**
 * Opens the database DATABASE_URL names: PostgreSQL for a `postgres://` or `postgresql://`
 * URL, else a SQLite file. This is where the engine is chosen; nothing above src/db knows it.
 */
export function openDatabase(config: DatabaseConfig): OpenDatabase {
  return /^postgres(ql)?:\/\//i.test(config.url) ? openPostgres(config) : openSqlite(config);
}
