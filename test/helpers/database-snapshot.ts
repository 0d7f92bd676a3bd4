import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { MIGRATION_LOCK_KEY } from '../../src/db/migrate.ts';
import { ENGINE } from './test-database.ts';

export interface DatabaseSnapshot {
  /** Puts the database back as it was when the snapshot was taken; every server on it must be closed first. */
  restore(): Promise<void>;
}

/**
 * A backup of the database at `url` taken as docs/operations.md takes one, to restore it as an
 * operator would: SQLite's VACUUM INTO (what `petstore backup` runs) copied back over the file,
 * or PostgreSQL's pg_dump and pg_restore of the database's schema.
 */
export function snapshotDatabase(url: string, dir: string): DatabaseSnapshot {
  const file = join(dir, `snapshot-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  if (ENGINE === 'sqlite') {
    const sqlite = new SQLite(url);
    sqlite.prepare('vacuum into ?').run(file);
    sqlite.close();
    return {
      restore: async () => {
        for (const suffix of ['-wal', '-shm']) rmSync(`${url}${suffix}`, { force: true });
        copyFileSync(file, url);
      },
    };
  }
  const parsed = new URL(url);
  const schema = /search_path=(\w+)/.exec(parsed.searchParams.get('options') ?? '')?.[1];
  if (!schema) throw new Error(`no schema in ${url}`);
  parsed.search = '';
  const server = parsed.toString();
  execFileSync('pg_dump', ['--format=custom', `--schema=${schema}`, `--file=${file}`, server], { stdio: 'pipe' });
  return {
    restore: async () => {
      // Under the migration lock, as test-database.ts drops a schema: a parallel file's migrator lists every schema's tables.
      const drop = `begin; select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}); drop schema ${schema} cascade; commit;`;
      execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-c', drop, server], { stdio: 'pipe' });
      execFileSync('pg_restore', ['--dbname', server, file], { stdio: 'pipe' });
    },
  };
}
