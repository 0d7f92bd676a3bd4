import { closeSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOENT: 'the file cannot be created there',
  EEXIST: 'a part of the path is a file, not a folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOSPC: 'the disk is full',
};

function errnoReason(error: unknown): string | null {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  return REASONS[code] ? `${REASONS[code]} (${code})` : null;
}

/**
 * Why a SQLite file could not be opened, in words that name the path and what to change.
 * SQLite itself only says "unable to open database file"; the file system says why.
 */
export function sqliteOpenFailure(file: string, error: unknown): Error {
  const driver = driverLoadFailure(error);
  if (driver) return driver;
  const what = `cannot open the SQLite database '${file}' (DATABASE_URL)`;
  let reason: string;
  if (isFolder(file)) {
    reason = `it is a folder; give a file path inside it, e.g. DATABASE_URL=${file.replace(/\/$/, '')}/petstore.db`;
  } else if (error instanceof Error && 'code' in error && String(error.code) === 'SQLITE_NOTADB') {
    reason = 'the file exists but is not a SQLite database';
  } else {
    reason = errnoReason(error) ?? probe(file) ?? (error instanceof Error ? error.message : String(error));
    reason += `; choose a writable location, e.g. DATABASE_URL=./data/petstore.db`;
  }
  return new Error(`${what}: ${reason}.`, { cause: error });
}

/**
 * The SQLite driver's compiled part could not be loaded: nothing to do with the file. better-sqlite3
 * ships one Node-API binary per platform that every supported Node loads, so this is a platform
 * without one, a binary damaged on disk, or a C library it cannot use.
 */
function driverLoadFailure(error: unknown): Error | null {
  if (!(error instanceof Error) || !('code' in error) || error.code !== 'ERR_DLOPEN_FAILED') return null;
  const why = error.message.split('\n')[0] ?? '';
  return new Error(
    `cannot load the SQLite driver (better-sqlite3) on this machine (${process.platform}-${process.arch}): ${why}. ` +
      'Reinstall it (`npm ci`); on a platform its prebuilt binaries do not cover, build it from source: `npm run build-release --prefix node_modules/better-sqlite3` (needs a C++ compiler and Python).',
    { cause: error },
  );
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Opens the file as SQLite would, to learn the errno SQLite does not report. */
function probe(file: string): string | null {
  try {
    closeSync(openSync(file, 'a'));
    statSync(dirname(file));
    return null;
  } catch (error) {
    return errnoReason(error);
  }
}
