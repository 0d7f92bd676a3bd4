// npm run bench -- --profile NAME --promises [--floor]: the promises a request makes under the
// scenario's load, and where they are made. Each is an object, a microtask and, where it is
// awaited, a suspended frame: a count the on-CPU profile spreads over Node's and V8's frames.
// The server runs with bench/promise-hooks.mjs preloaded, which counts them by V8's promise hooks.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDatabase } from './bench-database.ts';
import { faulty, fmt, load } from './bench-load.ts';
import type { BenchServer } from './bench-servers.ts';
import { shownPath, sideName, sideRequest, startSide, table } from './profile-server.ts';
import type { ProfileOptions } from './profile-server.ts';

const HOOKS = fileURLToPath(new URL('./promise-hooks.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A site as the table shows it: each frame's function and where it is, paths cut as the profiles cut them. */
function shownSite(site: string): string {
  return site
    .split(' < ')
    .map((frame) =>
      // `name (where)`, or a bare `where` for a frame with no name.
      /\)$/.test(frame)
        ? frame.replace(/\((?:file:\/\/)?(.*)\)$/, (_, where: string) => `${shownPath(where).replace(ROOT, '')}`)
        : shownPath(frame.replace(/^file:\/\//, '')).replace(ROOT, ''),
    )
    .join(' < ');
}

/** What the server's hooks counted since they last said (and they start again). */
async function counted(server: BenchServer): Promise<{ made: number; sites: [string, number][] }> {
  const pid = server.process.pid;
  if (pid === undefined) throw new Error('the server has no process id');
  const file = join(tmpdir(), `petstore-promises-${pid}.json`);
  rmSync(file, { force: true });
  server.process.kill('SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  // Written in one call: once it is there, it is whole.
  const text = readFileSync(file, 'utf8');
  rmSync(file, { force: true });
  return JSON.parse(text) as { made: number; sites: [string, number][] };
}

/** The project (the floor, a peer) under the scenario's load, warmed up, then one round's promises counted. */
export async function promiseCount(options: ProfileOptions): Promise<boolean> {
  const { engine, dir, petCount, settings, scenario, databases, top } = options;
  const db = await benchDatabase(engine, dir, 'promises', petCount);
  databases.push(db);
  const nodeFlags = ['--import', HOOKS];
  const floor = options.side === 'floor';
  // Before the server starts: a scenario the floor has no request for ends here, leaving nothing running.
  const request = sideRequest(scenario, floor);
  const server = await startSide(options, db.url, nodeFlags, 'promises');
  const side = { server, request, key: db.key };
  try {
    if (options.side === 'project') await scenario.setup?.(server.origin, db.key);
    if (settings.warmUp) await load(side, Math.max(2, settings.duration), scenario.expectStatus, settings.connections);
    await counted(server);
    const run = await load(side, settings.duration, scenario.expectStatus, settings.connections);
    const { made, sites } = await counted(server);
    const perRequest = (n: number) => (run.requests > 0 ? n / run.requests : 0);
    console.log(
      `\nPromises of ${sideName(options.side)} under "${scenario.name}" (${engine}, ${settings.connections} connections, ${settings.duration} s)`,
    );
    console.log(`${run.requests} requests: ${fmt(perRequest(made), 2)} promises a request (counted; where, from one in 97).`);
    const rows = sites.map(([site, n]): [string, number] => [shownSite(site), n]);
    console.log(
      table('Where made (the function that made it < its callers):', rows, perRequest, made, top, { unit: 'promises/req', digits: 2 }),
    );
    // The count was written, so the hooks ran: none counted is an answer (the floor makes none).
    return faulty([run]) === 0;
  } finally {
    await server.stop();
  }
}
