import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The machine's own Node when it is one this release refuses (this machine's and CI's: 20.20), else null. */
function machineNode(): string | null {
  const node = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => existsSync(path));
  if (!node) return null;
  const major = Number(spawnSync(node, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim());
  return major < 22 ? node : null;
}

describe('the server started on a Node this release does not run on', () => {
  const cases: [string, string[]][] = [];
  const machine = machineNode();
  if (machine) cases.push([`the machine's Node (${machine})`, [machine]]);
  // Everywhere, whatever the machine has: this Node saying it is 20.20.2, as `npm start` would start it.
  const dir = mkdtempSync(join(tmpdir(), 'petstore-node20-'));
  const pretend = join(dir, 'pretend-node-20.cjs');
  writeFileSync(pretend, "Object.defineProperty(process, 'version', { value: 'v20.20.2' });\n");
  cases.push(['a Node that says it is 20.20.2', [process.execPath, '--require', pretend]]);

  it.each(cases)('%s: exits 1 before loading anything, saying Node 20 is retired and what to use', (_, command) => {
    try {
      const [node = '', ...flags] = command;
      const run = spawnSync(node, [...flags, join(ROOT, 'bin/petstore.js'), 'serve'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: join(dir, 'never.db'), PORT: '0' },
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /^petstore: Node 20\.\d+\.\d+ cannot run this release\. Node 20 reached its end of life on 2026-04-30 and is no longer supported\. Use Node 24 or 26 \(LTS; 22\.18 or newer still works until its end of life on 2027-04-30\), then run `npm ci` again/,
      );
      expect(run.stdout).toBe('');
      expect(existsSync(join(dir, 'never.db'))).toBe(false);
    } finally {
      if (command === cases.at(-1)?.[1]) rmSync(dir, { recursive: true, force: true });
    }
  });
});
