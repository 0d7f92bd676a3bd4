import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type SQLite from 'better-sqlite3';

/**
 * A consistent copy of the database at `target`, taken while servers keep writing: VACUUM INTO
 * reads one snapshot in one read transaction (WAL: writers never wait for it), and writes a
 * compact file with no WAL beside it. Copying the file itself is no backup: the last commits may
 * be in the -wal file still. The copy is written beside the target and renamed into place once
 * on disk, so a target that exists is always a whole backup; an existing one is never replaced.
 */
export function sqliteBackup(sqlite: SQLite.Database, target: string): void {
  const path = resolve(target);
  if (existsSync(path)) throw new Error(`${target} already exists: give a new file name (a backup never overwrites a file).`);
  if (!existsSync(dirname(path))) throw new Error(`the folder ${dirname(target)} does not exist.`);
  const partial = `${path}.partial-${process.pid}`;
  try {
    sqlite.prepare('vacuum into ?').run(partial);
    const fd = openSync(partial, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}
