import { spawnSync } from 'node:child_process';
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
