import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';

/** Returns a value that differs from the last one once a write may have been committed since. */
export type DataVersion = () => string;

const readers = new WeakMap<object, DataVersion>();

export interface SqliteDataVersionOptions {
  /** How often other processes' commits are looked for; this connection's own writes show at once. */
  pollMs?: number;
}

/**
 * SQLite's two counters together see every write: `total_changes()` moves when this
 * connection writes and costs nothing to read; `data_version` moves when another
 * connection (the CLI, a second server) commits, but reading it opens a read transaction
 * (file locks), so it is polled rather than read per call.
 */
export function sqliteDataVersion(sqlite: SQLite.Database, { pollMs = 250 }: SqliteDataVersionOptions = {}): DataVersion {
  const others = sqlite.prepare('pragma data_version').pluck();
  const own = sqlite.prepare('select total_changes()').pluck();
  let othersSeen = others.get() as number;
  const timer = setInterval(() => {
    if (sqlite.open) othersSeen = others.get() as number;
    else clearInterval(timer);
  }, pollMs);
  timer.unref();
  return () => `${othersSeen}:${own.get() as number}`;
}

export function registerDataVersion<DB>(db: Kysely<DB>, read: DataVersion): void {
  readers.set(db, read);
}

/**
 * The data version of a database opened here, or null for one this module cannot read cheaply
 * (say, one wrapped with plugins): callers then cache nothing that a write could make stale.
 */
export function dataVersionOf<DB>(db: Kysely<DB>): DataVersion | null {
  return readers.get(db) ?? null;
}
