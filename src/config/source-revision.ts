import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The package's root: two folders up from src/config and dist/config alike. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The source revision of this checkout: PETSTORE_REVISION when set (a build from an archive,
 * an image), else git's commit, 12 digits, `-dirty` when tracked files changed since; null
 * outside a git checkout (or without git).
 */
export function sourceRevision(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.PETSTORE_REVISION) return env.PETSTORE_REVISION;
  const git = (...args: string[]) => spawnSync('git', args, { cwd: PACKAGE_ROOT, encoding: 'utf8', timeout: 5_000 });
  const head = git('rev-parse', '--short=12', 'HEAD');
  if (head.status !== 0 || !head.stdout.trim()) return null;
  const changed = git('status', '--porcelain', '--untracked-files=no');
  return `${head.stdout.trim()}${changed.status === 0 && changed.stdout.trim() ? '-dirty' : ''}`;
}
