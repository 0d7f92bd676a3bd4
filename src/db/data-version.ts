import type SQLite from 'better-sqlite3';

/** Returns a value that differs from the last one once a write may have been committed since. */
export type DataVersion = () => string;

/**
 * How often other processes' key changes are looked for, on either engine (this process's own
 * show at once): the bound within which a key revoked, or an account disabled, elsewhere is
 * refused everywhere, by requests and open subscriptions alike.
 */
export const KEY_CHANGES_POLL_MS = 250;

/**
 * SQLite's two counters together see every write: `total_changes()` moves when this
 * connection writes and costs nothing to read; `data_version` moves when another
 * connection (the CLI, a second server) commits, but reading it opens a read transaction
 * (file locks, 3.2 µs). `polled` reads it every KEY_CHANGES_POLL_MS, for the key cache, which
 * asks on every request; `current` reads both at the call, for a read answered again until
 * either moves (unchanged-reads.ts). One pair of statements serves both.
 */
export function sqliteDataVersions(sqlite: SQLite.Database): { polled: DataVersion; current: DataVersion } {
  const others = sqlite.prepare('pragma data_version').pluck();
  const own = sqlite.prepare('select total_changes()').pluck();
  let othersSeen = others.get() as number;
  const timer = setInterval(() => {
    if (sqlite.open) othersSeen = others.get() as number;
    else clearInterval(timer);
  }, KEY_CHANGES_POLL_MS);
  timer.unref();
  return {
    polled: () => `${othersSeen}:${own.get() as number}`,
    current: () => `${others.get() as number}:${own.get() as number}`,
  };
}
