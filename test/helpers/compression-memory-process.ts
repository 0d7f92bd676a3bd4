// What compressed answers leave behind, measured in a process of its own
// (test/http/caching/releasing-zlib.test.ts runs it with --expose-gc): a test worker's memory is
// shared with every file that ran in it before, and whatever those left running allocates and
// starts full collections in the window read (in CI's PostgreSQL tier, every one of ten). Not
// part of the product. Prints one JSON line: per coding, the Content-Encoding answered, whether
// the answer inflates to the plain page, and the KiB of array buffers 200 answers left after
// two scavenges (or why no window could be read).
import { Agent, get } from 'node:http';
import { constants, performance, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeGCPerformanceDetail } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp } from './test-app.ts';

const collect = globalThis.gc;
if (!collect) throw new Error('run with --expose-gc');
const scavenge = () => {
  // Twice: a young object that lives through one scavenge is moved, not freed, by it.
  collect({ type: 'minor' });
  collect({ type: 'minor' });
};

/** How long after a full collection its sweep may still be running, on a loaded machine. */
const SWEEP_MS = 1000;

/**
 * When full collections ran. A window one overlapped, or followed by less than a second, says
 * nothing: its sweep of array buffers runs on another thread, and until that ends the young
 * buffers scavenges free stay counted (a script of its own read 66 KiB in every window without
 * one, 2.7 MB in one with one). Only a full collection's pause starts that sweep: the entries of
 * incremental marking's steps and of weak callbacks sweep nothing, and are not counted. Entries
 * arrive asynchronously, so `overlapping` waits for them.
 */
const spans: { from: number; to: number; flags: number }[] = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    // Node's gc entries carry it; the entry type does not declare it.
    const { kind, flags } = Reflect.get(entry, 'detail') as NodeGCPerformanceDetail;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) spans.push({ from: entry.startTime, to: entry.startTime + entry.duration, flags });
  }
});
observer.observe({ entryTypes: ['gc'] });
/** The full collection that overlapped a window, said as a failure should say it; null when none did. */
const overlapping = async (from: number, to: number): Promise<string | null> => {
  await sleep(20);
  const span = spans.find((s) => s.to >= from - SWEEP_MS && s.from <= to);
  if (!span) return null;
  return `${Math.round(span.from - from)} ms from the window's start, ${Math.round(span.to - span.from)} ms long, flags ${span.flags}; the window ${Math.round(to - from)} ms`;
};

const t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
for (let i = 0; i < 100; i++) await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `Pet number ${i}`, categoryId: 1 } });
const plain = (await t.call({ url: '/v1/pets?limit=100' })).body;
// Over a socket, with node:http's client, which inflates nothing: fetch would decompress in
// this process, with zlib engines of its own, and inject keeps memory of its own a while.
const origin = new URL(await t.listen());
const agent = new Agent({ keepAlive: true });
const ask = (coding: string) =>
  new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    get(
      { host: origin.hostname, port: origin.port, path: '/v1/pets?limit=100', agent, headers: { ...t.auth, 'accept-encoding': coding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      },
    ).on('error', reject);
  });

const codings = [
  ['br', brotliDecompressSync],
  ['gzip', gunzipSync],
] as const;
const result: Record<string, { encoding: string | undefined; inflates: boolean; kib: number | string }> = {};
for (const [coding, decode] of codings) {
  const first = await ask(coding);
  let kib: number | string = 'no window was read';
  // A window a full collection overlapped is read again, up to ten times: without the release,
  // every window without one reads the whole 6.4 MB, so a retry hides nothing.
  for (let attempt = 0; attempt < 10; attempt++) {
    // Each window starts a second after a full collection of its own, whose sweep has then ended.
    collect({ type: 'major' });
    await sleep(SWEEP_MS + 10);
    scavenge();
    const from = performance.now();
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 200; i++) await ask(coding);
    scavenge();
    const grew = Math.round((process.memoryUsage().arrayBuffers - before) / 1024);
    const overlap = await overlapping(from, performance.now());
    if (!overlap) {
      kib = grew;
      break;
    }
    kib = `every window overlapped a full collection (the last: ${overlap})`;
  }
  result[coding] = { encoding: first.encoding, inflates: decode(first.body).toString() === plain, kib };
}
observer.disconnect();
agent.destroy();
await t.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
