import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from '../../helpers/fixtures.ts';
import { startScript } from '../../helpers/start-script.ts';

const PROCESS = fileURLToPath(new URL('../../helpers/compression-memory-process.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('the memory of compressed answers', () => {
  it('is given back by a scavenge: no answer leaves its zlib chunk waiting for a full collection', async () => {
    // A process of its own (compression-memory-process.ts says why), on SQLite whatever the
    // suite's engine: what is measured is compression's, not storage's.
    // V8's heuristics, fixed, so a window reads the same on any machine; each of these failed CI
    // without its flag (docs/performance.md, 2026-12-03 afternoon, says how). The young
    // generation as the server's under load (npm start's maximum, grown to): a full collection
    // shrinks it (to about 1 MB here), and a scavenge every few answers then promotes the buffers
    // in flight, which only a full collection frees, with the release as without. And a growth
    // factor of 5: the factor V8 tunes to the machine's speed after a full collection left so
    // little room that each window's answers started one.
    const semiSpace = startScript(ROOT)
      .flags.find((flag) => flag.startsWith('--max-semi-space-size='))
      ?.split('=')[1];
    if (semiSpace === undefined) throw new Error('npm start sets no --max-semi-space-size: the window needs the young generation fixed');
    const args = [
      '--expose-gc',
      `--min-semi-space-size=${semiSpace}`,
      `--max-semi-space-size=${semiSpace}`,
      '--heap-growing-percent=400',
      '--import',
      'tsx',
      PROCESS,
    ];
    const { stdout } = await promisify(execFile)(process.execPath, args, {
      env: { ...process.env, TEST_DATABASE_URL: '', TEST_DATABASE_POOLER: '' },
      timeout: 120_000,
    });
    const measured = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<
      string,
      { encoding: string; inflates: boolean; kib: number | string }
    >;
    expect(
      Object.fromEntries(Object.entries(measured).map(([coding, { encoding, inflates }]) => [coding, { encoding, inflates }])),
    ).toEqual({
      br: { encoding: 'br', inflates: true },
      gzip: { encoding: 'gzip', inflates: true },
    });
    // Held by zlib's engines (their native handle outlives scavenges), 200 answers would keep
    // 200 × 32 KiB until a full collection: 6.4 MB (measured on Node 24 and 26; Node 22 frees them).
    expect(Object.entries(measured).filter(([, { kib }]) => !(typeof kib === 'number' && kib < 1024))).toEqual([]);
  });
});
