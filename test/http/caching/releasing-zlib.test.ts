import { Agent, get } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from '../../helpers/fixtures.ts';

/** V8's collector, asked for a scavenge: what a young answer's memory waits for. */
function scavenger(): () => void {
  // The flag only gives contexts made from now on a `gc`; this worker's globals stay as they are.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'minor' | 'major' }) => void;
  return () => {
    // Twice: a young object that lives through one scavenge is moved, not freed, by it.
    gc({ type: 'minor' });
    gc({ type: 'minor' });
  };
}

describe('the memory of compressed answers', () => {
  it('is given back by a scavenge: no answer leaves its zlib chunk waiting for a full collection', async ({ makeApp }) => {
    const t = await makeApp({ RATE_LIMIT_PER_MINUTE: '0' });
    for (let i = 0; i < 100; i++) await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `Pet number ${i}`, categoryId: 1 } });
    const plain = (await t.call({ url: '/v1/pets?limit=100' })).body;
    // Over a socket, with node:http's client, which inflates nothing: fetch would decompress in
    // this process, with zlib engines of its own, and inject keeps memory of its own a while.
    const origin = new URL(await t.listen());
    const agent = new Agent({ keepAlive: true });
    const ask = (coding: string) =>
      new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
        get(
          {
            host: origin.hostname,
            port: origin.port,
            path: '/v1/pets?limit=100',
            agent,
            headers: { ...t.auth, 'accept-encoding': coding },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
          },
        ).on('error', reject);
      });
    try {
      const codings = [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const;
      const scavenge = scavenger();
      const grew: Record<string, number> = {};
      for (const [coding, decode] of codings) {
        const first = await ask(coding);
        expect(first.encoding).toBe(coding);
        expect(decode(first.body).toString()).toBe(plain);
        scavenge();
        const before = process.memoryUsage().arrayBuffers;
        for (let i = 0; i < 200; i++) await ask(coding);
        scavenge();
        grew[coding] = Math.round((process.memoryUsage().arrayBuffers - before) / 1024);
      }
      // Held by zlib's engines (their native handle outlives scavenges), 200 answers would keep
      // 200 × 32 KiB until a full collection: 6.3 MB (measured on Node 24 and 26; Node 22 frees them).
      expect(Object.entries(grew).filter(([, kib]) => kib >= 1024)).toEqual([]);
    } finally {
      agent.destroy();
    }
  });
});
