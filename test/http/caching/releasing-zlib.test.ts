import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from '../../helpers/fixtures.ts';

const PROCESS = fileURLToPath(new URL('../../helpers/compression-memory-process.ts', import.meta.url));

describe('the memory of compressed answers', () => {
  it('is given back by a scavenge: no answer leaves its zlib chunk waiting for a full collection', async () => {
    // A process of its own (compression-memory-process.ts says why), on SQLite whatever the
    // suite's engine: what is measured is compression's, not storage's.
    // --heap-growing-percent: a window must not reach V8's allocation limit. After the process's
    // own full collection V8 sets the next limit by a factor it tunes to the machine's speed,
    // and in CI's PostgreSQL tiers (twice in two runs, never here) it was low enough that every
    // window's 200 answers reached it, starting a full collection in each (its flags said so).
    // A fixed factor of 5 leaves each window far below it.
    const args = ['--expose-gc', '--heap-growing-percent=400', '--import', 'tsx', PROCESS];
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
