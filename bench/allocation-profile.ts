// npm run bench -- --profile NAME --allocations [--floor]: the bytes of JavaScript heap a request
// allocates under the scenario's load, and where (by function, self and with what it calls).
// V8's sampling heap profiler through the inspector, keeping the samples of objects the
// collector has freed since: a request's garbage is the cost looked for, and `--heap-prof` (live
// objects only) shows none of it. Buffers' and strings' bytes outside the heap are not counted.
import { benchDatabase } from './bench-database.ts';
import { faulty, fmt, load } from './bench-load.ts';
import { freePort } from '../test/helpers/cli.ts';
import { shownPath, sideName, sideRequest, startSide, table } from './profile-server.ts';
import type { ProfileOptions } from './profile-server.ts';

/** The tables' column: bytes, whole. */
const BYTES = { unit: 'bytes/req', digits: 0 };

/** A node of the sampling heap profile (the protocol's SamplingHeapProfileNode). */
interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** One Chrome DevTools Protocol session over the inspector's WebSocket: a call and its answer. */
async function inspectorSession(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error('the inspector lists no target');
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  const pending = new Map<number, (message: { result?: unknown; error?: { message: string } }) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id !== undefined) pending.get(message.id)?.(message);
  });
  let next = 1;
  return {
    call: (method: string, params: Record<string, unknown> = {}) =>
      new Promise<unknown>((resolve, reject) => {
        const id = next++;
        pending.set(id, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result)));
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

function frameName({ functionName, url, lineNumber }: HeapNode['callFrame']): string {
  const file = url.replace(/^file:\/\//, '');
  return `${functionName || '(anonymous)'} ${file ? `${shownPath(file)}:${lineNumber + 1}` : '(no file: built in, or made by new Function)'}`;
}

/** The project (the floor, a peer) under the scenario's load, warmed up, then one round's allocations sampled. */
export async function allocationProfile(options: ProfileOptions): Promise<boolean> {
  const { engine, dir, petCount, settings, scenario, databases, top } = options;
  const db = await benchDatabase(engine, dir, 'allocations', petCount);
  databases.push(db);
  const port = await freePort();
  const nodeFlags = [`--inspect=127.0.0.1:${port}`];
  const floor = options.side === 'floor';
  // Before the server starts: a scenario the floor has no request for ends here, leaving nothing running.
  const request = sideRequest(scenario, floor);
  const server = await startSide(options, db.url, nodeFlags, 'allocations');
  const side = { server, request, key: db.key };
  const session = await inspectorSession(port);
  try {
    if (options.side === 'project') await scenario.setup?.(server.origin, db.key);
    if (settings.warmUp) await load(side, Math.max(2, settings.duration), scenario.expectStatus, settings.connections);
    // One sample per 1 KiB allocated on average; V8 scales each sample to the bytes it stands for.
    await session.call('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    const run = await load(side, settings.duration, scenario.expectStatus, settings.connections);
    const { profile } = (await session.call('HeapProfiler.stopSampling')) as { profile: { head: HeapNode } };
    const self = new Map<string, number>();
    const inclusive = new Map<string, number>();
    let total = 0;
    // Each function once per path, however deep it recurses; iterative, as a profile's tree is deep.
    const stack: { node: HeapNode; path: ReadonlySet<string> }[] = [{ node: profile.head, path: new Set() }];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      const { node, path } = top;
      const name = frameName(node.callFrame);
      const here = path.has(name) ? path : new Set([...path, name]);
      if (node.selfSize > 0) {
        total += node.selfSize;
        self.set(name, (self.get(name) ?? 0) + node.selfSize);
        for (const fn of here) inclusive.set(fn, (inclusive.get(fn) ?? 0) + node.selfSize);
      }
      for (const child of node.children) stack.push({ node: child, path: here });
    }
    const perRequest = (bytes: number) => (run.requests > 0 ? bytes / run.requests : 0);
    console.log(
      `\nAllocations of ${sideName(options.side)} under "${scenario.name}" (${engine}, ${settings.connections} connections, ${settings.duration} s)`,
    );
    console.log(`${run.requests} requests: ${fmt(perRequest(total) / 1024, 1)} KiB of JavaScript heap allocated a request (sampled).`);
    inclusive.delete(frameName(profile.head.callFrame));
    console.log(table('By function, self:', [...self], perRequest, total, top, BYTES));
    console.log(table('By function, with what it calls:', [...inclusive], perRequest, total, top, BYTES));
    return faulty([run]) === 0 && total > 0;
  } finally {
    session.close();
    await server.stop();
  }
}
