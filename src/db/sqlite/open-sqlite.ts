import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely } from 'kysely';
import type { DatabaseConfig } from '../../config/load-config.ts';
import type { OpenDatabase } from '../connection.ts';
import { allowDirectRuns } from '../direct-runs.ts';
import { sqliteDataVersions } from '../data-version.ts';
import { allowUnchangedReads } from '../unchanged-reads.ts';
import type { ObserverSlot } from '../statement-observer.ts';
import type { Database } from '../types.ts';
import { sqliteBackup } from './sqlite-backup.ts';
import { PetstoreSqliteDialect } from './sqlite-dialect.ts';
import { sqliteOpenFailure } from './sqlite-open-failure.ts';

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

/** A SQLite file (or `sqlite:`/`file:` URL, or `:memory:`). */
export function openSqlite({ url, lockTimeoutMs }: DatabaseConfig): OpenDatabase {
  const file = url === ':memory:' ? ':memory:' : url.replace(/^(sqlite|file):(\/\/)?/, '');
  const sqlite = openFile(file);
  // synchronous=NORMAL in WAL mode never corrupts the database; a power cut (not a process
  // crash) can lose the last transactions before the next checkpoint.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // No wait inside SQLite, which would block the event loop: the dialect waits for another
  // process's lock itself, without blocking, for up to lockTimeoutMs.
  sqlite.pragma('busy_timeout = 0');
  const watch: ObserverSlot = { observer: null };
  const dialect = new PetstoreSqliteDialect(sqlite, { lockTimeoutMs, watch });
  const db = new Kysely<Database>({ dialect });
  allowDirectRuns(db, (query) => dialect.runIfFree(query));
  const versions = sqliteDataVersions(sqlite);
  allowUnchangedReads(db, versions.current);
  return {
    db,
    observe: (observer) => void (watch.observer = observer),
    dataVersion: versions.polled,
    // Its counters were read at open, and this connection's own writes are counted per call.
    syncDataVersion: async () => undefined,
    engine: 'sqlite',
    replicas: null,
    label: `the SQLite database '${file}'`,
    // Opening read the file already; there is nothing further to reach.
    check: async () => undefined,
    // A statement with a parameter, as requests run theirs.
    probe: async () => void (await db.executeQuery(CompiledQuery.raw('select ? as ready', [1]))),
    migrations: { db, lock: true, refusal: null },
    advanceIds: async () => {
      throw new Error('SQLite has no standby to promote: ids are only ever given by this file, so there is nothing to advance.');
    },
    backup: async (target) => {
      if (file === ':memory:') throw new Error('the database is in memory (DATABASE_URL=:memory:): there is nothing to back up.');
      sqliteBackup(sqlite, target);
    },
    async close() {
      await db.destroy();
      if (sqlite.open) sqlite.close();
    },
  };
}
