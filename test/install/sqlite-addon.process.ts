import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SUPPORTED_NODE } from '../../bin/supported-node.js';
import { startServer } from '../helpers/cli.ts';
import { startScript } from '../helpers/start-script.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// Statements prepared and dropped while I/O callbacks run, with enough garbage that the collector
// frees them from there, as a server's does: better-sqlite3 12, compiled against Node 24.19+
// headers, aborted the process at the first such collection (nodejs/node#65446).
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

/** Each supported Node line's binary, as CI pins it (.ci/with-node fetches it the first time). */
const NODES = SUPPORTED_NODE.map((oldest) => {
  const major = oldest.split('.')[0] ?? '';
  const dir = spawnSync(join(ROOT, '.ci/with-node'), [major, '--dir'], { encoding: 'utf8' });
  if (dir.status !== 0) throw new Error(`.ci/with-node ${major} --dir failed: ${dir.stderr}`);
  return { major, node: join(dir.stdout.trim(), 'bin/node') };
});

const dir = mkdtempSync(join(tmpdir(), 'petstore-addon-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One install, one binary (better-sqlite3 13 ships Node-API builds): the server a unit file or an
// image starts with another supported Node than the one that ran npm ci must still work.
describe.each(NODES)('one install (its SQLite driver, the server), on Node $major', { timeout: 120_000 }, ({ major, node }) => {
  it('survives the collection of its statements', () => {
    const run = spawnSync(node, ['-e', CHURN], { cwd: ROOT, encoding: 'utf8', timeout: 100_000 });
    expect([run.signal, run.status, run.stdout], run.stderr).toEqual([null, 0, 'churned 2000\n']);
  });

  it('serves as `npm start` starts it (its flags), and answers the README’s first request', async () => {
    const { env, flags } = startScript(ROOT);
    expect(flags.length).toBeGreaterThan(0);
    const server = await startServer({ ...env, DATABASE_URL: join(dir, `serve-${major}.db`) }, [node, ...flags]);
    try {
      const key = /psk_\w+/.exec(server.output())?.[0] ?? '';
      const pets = await fetch(`${server.origin}/v1/pets`, { headers: { authorization: `Bearer ${key}` } });
      expect([pets.status, await pets.json()]).toEqual([200, []]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('migrates a new database through the CLI', () => {
    const run = spawnSync(node, [join(ROOT, 'bin/petstore.js'), 'migrate'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: join(dir, `node-${major}.db`) },
      timeout: 100_000,
    });
    expect(run.status, run.stderr).toBe(0);
  });
});

describe('a driver whose binary does not load', () => {
  it('makes the CLI say so and how to mend it, not blame the database path', () => {
    // What a platform without a prebuilt binary (or a damaged one) gives: dlopen refuses it.
    const refuse = join(dir, 'refuse-dlopen.cjs');
    writeFileSync(
      refuse,
      "process.dlopen = () => { throw Object.assign(new Error('better_sqlite3.node: wrong ELF class: ELFCLASS32'), { code: 'ERR_DLOPEN_FAILED' }); };\n",
    );
    const run = spawnSync(process.execPath, ['--require', refuse, join(ROOT, 'bin/petstore.js'), 'migrate'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: join(dir, 'refused.db') },
      timeout: 100_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^petstore: cannot load the SQLite driver \(better-sqlite3\) on this machine \(linux-x64\): better_sqlite3\.node: wrong ELF class: ELFCLASS32\. Reinstall it \(`npm ci`\);/,
    );
    expect(run.stderr).not.toMatch(/writable location|DATABASE_URL=/);
  });
});
