import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { sqliteDataVersion } from './data-version.ts';
import type { DataVersion } from './data-version.ts';
import { PetstoreSqliteDialect } from './sqlite-dialect.ts';
import { sqliteOpenFailure } from './sqlite-open-failure.ts';
import type { Database } from './types.ts';

/** Opens (creating folders and file) and reads the file, so a bad path fails here with its reason. */
function openFile(file: string): SQLite.Database {
  let sqlite: SQLite.Database | undefined;
  try {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    sqlite = new SQLite(file);
    // WAL lets the CLI read and write while a server holds the file. Setting it is also the
    // first read of the file, where "not a database" shows.
    sqlite.pragma('journal_mode = WAL');
    return sqlite;
  } catch (error) {
    sqlite?.close();
    throw sqliteOpenFailure(file, error);
  }
}

/** An open database: the Kysely instance the services take, and what only the engine can tell about it. */
export interface OpenDatabase {
  db: Kysely<Database>;
  /** Moves whenever a write may have been committed, by this process or another (data-version.ts). */
  dataVersion: DataVersion;
}

/**
 * Opens the database named by DATABASE_URL. This file is where the dialect is chosen;
 * nothing above src/db knows it is SQLite.
 */
export function openDatabase(databaseUrl: string): OpenDatabase {
  const file = databaseUrl === ':memory:' ? ':memory:' : databaseUrl.replace(/^(sqlite|file):(\/\/)?/, '');
  const sqlite = openFile(file);
  // synchronous=NORMAL in WAL mode never corrupts the database; a power cut (not a process
  // crash) can lose the last transactions before the next checkpoint.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Writers from another process wait up to 5 s for the lock instead of failing at once.
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new PetstoreSqliteDialect(sqlite) }), dataVersion: sqliteDataVersion(sqlite) };
}
