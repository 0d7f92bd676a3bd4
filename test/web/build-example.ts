import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const EXAMPLE_DIR = fileURLToPath(new URL('../../examples/web/', import.meta.url));

/** Once per run: builds examples/web (codegen, tsc, vite) as CI does, so the test drives what a user would run. */
export default function buildExample(): void {
  if (!existsSync(`${EXAMPLE_DIR}node_modules`)) {
    throw new Error('examples/web has no node_modules: run npm ci --prefix examples/web (CI does) before npm run test:web.');
  }
  const build = spawnSync('npm', ['run', 'build'], { cwd: EXAMPLE_DIR, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`examples/web does not build:\n${build.stdout}${build.stderr}`);
}
