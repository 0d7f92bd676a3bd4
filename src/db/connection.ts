import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { registerDataVersion, sqliteDataVersion } from './data-version.ts';
import { PetstoreSqliteDialect } from './sqlite-dialect.ts';
import type { Database } from './types.ts';

export const DEFAULT_DATABASE_URL = './data/petstore.db';

/**
 * Opens the database named by DATABASE_URL. This file is where the dialect is chosen;
 * nothing above src/db knows it is SQLite.
 */
export function openDatabase(databaseUrl: string = DEFAULT_DATABASE_URL): Kysely<Database> {
  const file = databaseUrl === ':memory:' ? ':memory:' : databaseUrl.replace(/^(sqlite|file):(\/\/)?/, '');
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets the CLI read and write while a server holds the file. synchronous=NORMAL
  // in WAL mode never corrupts the database; a power cut (not a process crash) can
  // lose the last transactions before the next checkpoint.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Writers from another process wait up to 5 s for the lock instead of failing at once.
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new PetstoreSqliteDialect(sqlite) });
  registerDataVersion(db, sqliteDataVersion(sqlite));
  return db;
}
