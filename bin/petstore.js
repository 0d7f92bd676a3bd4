#!/usr/bin/env node
// Which program runs: the compiled build (dist/, from `npm run build`) when it is at least as new
// as every file under src/; else the TypeScript sources through tsx, a dev dependency (present
// after `npm ci`, gone after `npm prune --omit=dev`). So a production install runs compiled code
// with neither TypeScript nor tsx installed, and a developer's edits are never shadowed by an
// older build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unsupportedNode } from './supported-node.js';

const refusal = unsupportedNode(process.version);
if (refusal) {
  process.stderr.write(`petstore: ${refusal}\n`);
  process.exit(1);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist', 'cli', 'main.js');

function newestSourceMs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMs(path) : statSync(path).mtimeMs);
  }
  return newest;
}

async function sourcesThroughTsx() {
  try {
    const { register } = await import('tsx/esm/api');
    register();
    return true;
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return false;
  }
}

const sources = join(root, 'src');
const builtMs = existsSync(built) ? statSync(built).mtimeMs : -1;
const current = builtMs >= 0 && (!existsSync(sources) || builtMs >= newestSourceMs(sources));
if (current) {
  await import(built);
} else if (await sourcesThroughTsx()) {
  await import('../src/cli/main.ts');
} else if (builtMs >= 0 && process.argv[2] === 'migrate') {
  // An older build knows fewer migrations than the sources beside it: it would call a database
  // current that the installed release has not yet migrated (or migrate it only part of the way).
  process.stderr.write(
    'petstore: dist/ is older than src/ (the installed release was not built): migrate refuses to run the older build, which may not know the newest migrations. Run `npm ci --include=dev && npm run build && npm prune --omit=dev`.\n',
  );
  process.exitCode = 1;
} else if (builtMs >= 0) {
  process.stderr.write(
    'petstore: dist/ is older than src/ and the dev tools are not installed: running the older build. Build it with `npm ci --include=dev && npm run build && npm prune --omit=dev`.\n',
  );
  await import(built);
} else {
  process.stderr.write(
    'petstore: no build in dist/ and no dev tools to run the sources: run `npm ci --include=dev && npm run build && npm prune --omit=dev` first.\n',
  );
  process.exitCode = 1;
}
