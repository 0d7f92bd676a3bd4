import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// Statements prepared and dropped while I/O callbacks run, with enough garbage that the collector
// frees them from there, as a server's does: where the addon was compiled against Node 24.19+
// headers, the first such collection aborts the process (nodejs/node#65446).
const CHURN = `
const Database = require('better-sqlite3');
const { readFile } = require('node:fs');
const db = new Database(':memory:');
let round = 0;
(function next() {
  for (let i = 0; i < 200; i++) db.prepare('select ? as x, randomblob(100) as y').get(i);
  const garbage = Array.from({ length: 2000 }, (_, i) => ({ i, s: 'x'.repeat(50) }));
  if (++round < 400) readFile(__filename, next);
  else console.log('churned', garbage.length);
})();
`;

describe('the SQLite driver as installed, on this Node', { timeout: 120_000 }, () => {
  it('survives the collection of its statements (better-sqlite3 built against headers that match docs/operations.md)', () => {
    const run = spawnSync(process.execPath, ['-e', CHURN], { cwd: ROOT, encoding: 'utf8', timeout: 100_000 });
    const hint = `better-sqlite3 aborted on Node ${process.version} (signal ${run.signal}): on Node 24.19 or newer it must be compiled against 24.18.1 headers (docs/operations.md, Install for production).\n${run.stderr}`;
    expect(run.signal, hint).toBeNull();
    expect(run.status, hint).toBe(0);
    expect(run.stdout).toBe('churned 2000\n');
  });
});

/** A Node on this machine of another ABI than the one running the suite (which built the addon): CI's others, or the machine's. */
function otherNode(): string | null {
  const candidates = readdirSync(join(ROOT, '.ci/node'))
    .map((v) => join(ROOT, `.ci/node/${v}/node_modules/node/bin/node`))
    .concat(['/usr/bin/node', '/usr/local/bin/node']);
  for (const node of candidates) {
    if (!existsSync(node)) continue;
    const abi = spawnSync(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).stdout.trim();
    if (abi !== '' && abi !== process.versions.modules) return node;
  }
  return null;
}

describe('the SQLite driver built for another Node', () => {
  const node = otherNode();
  it.runIf(node !== null)('makes the CLI name the mismatch and the fix, not the database path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-abi-'));
    try {
      const run = spawnSync(node ?? '', [join(ROOT, 'bin/petstore.js'), 'migrate'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: join(dir, 'petstore.db') },
        timeout: 100_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /^petstore: cannot load the SQLite driver \(better-sqlite3\): it was built for another Node \(NODE_MODULE_VERSION \d+\) than this one, v[\d.]+ \(NODE_MODULE_VERSION \d+\)\. Rebuild it with the Node that runs the server: `npm rebuild better-sqlite3`/,
      );
      expect(run.stderr).not.toMatch(/writable location|DATABASE_URL=/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
