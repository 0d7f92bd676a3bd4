import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/helpers/cli.ts';
import { startScript } from '../test/helpers/start-script.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

export interface BenchServer {
  name: string;
  origin: string;
  process: ChildProcess;
  /** Highest resident set size seen, in MB. */
  peakRssMb(): number;
  /** Highest resident set size seen since the last call (or the start), in MB: which scenario sets the peak. */
  windowPeakRssMb(): number;
  stop(): Promise<void>;
}

/** CPU time the process has used so far (user + system), in microseconds: /proc/<pid>/stat fields 14 and 15. */
export function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    // After the command name: field 3 is index 0, so utime (14) and stime (15) are at 11 and 12.
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function launch(name: string, args: string[], env: Record<string, string>, cwd = root): Promise<BenchServer> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited early`);
    try {
      await fetch(`${origin}/v1/pets`);
      break;
    } catch {
      if (i > 300) throw new Error(`${name} did not start`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  let peak = 0;
  let windowPeak = 0;
  const sampler = setInterval(() => {
    const rss = rssMb(child.pid ?? 0);
    peak = Math.max(peak, rss);
    windowPeak = Math.max(windowPeak, rss);
  }, 100);
  return {
    name,
    origin,
    process: child,
    peakRssMb: () => Math.round(peak),
    windowPeakRssMb: () => {
      const seen = Math.round(Math.max(windowPeak, rssMb(child.pid ?? 0)));
      windowPeak = 0;
      return seen;
    },
    stop: async () => {
      clearInterval(sampler);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * `npm run build` for `dir`: compiled, and the revision recorded as the build records it, so the
 * ready line names what runs (`revision` for an archive with no git, else git's commit).
 */
export function buildProject(dir = root, revision?: string): void {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript-7/bin/tsc'), '-p', join(dir, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  execFileSync(process.execPath, [join(dir, 'dist/config/write-build-info.js')], {
    stdio: 'inherit',
    env: revision ? { ...process.env, PETSTORE_REVISION: revision } : process.env,
  });
}

/**
 * Another revision's sources, built, in `into`: `git archive` of REV (nothing in .git changes),
 * compiled against this checkout's node_modules. A baseline for comparing builds side by side.
 */
export function buildRevision(rev: string, into: string): string {
  mkdirSync(into, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', rev], { cwd: root, maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', into], { input: archive });
  // The checkout's packages where the lockfiles agree; the revision's own where they do not (a
  // dependency added or removed since), so it builds and runs as it was.
  if (readFileSync(join(into, 'package-lock.json'), 'utf8') === readFileSync(join(root, 'package-lock.json'), 'utf8')) {
    symlinkSync(join(root, 'node_modules'), join(into, 'node_modules'));
  } else {
    console.log(`The packages of ${rev} differ from this checkout's: npm ci for it.`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: into, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  buildProject(into, execFileSync('git', ['rev-parse', '--short=12', rev], { cwd: root, encoding: 'utf8' }).trim());
  return into;
}

export interface ProjectOptions {
  /** The checkout whose dist/ runs: this one by default, or a baseline's (buildRevision). */
  dir?: string;
  /** Settings on top of the bench's own. */
  env?: Record<string, string>;
  name?: string;
  /** Node flags besides the start script's (--perf-basic-prof for a profile). */
  nodeFlags?: string[];
}

/** The real server as a production install's `npm start` runs it (the compiled build, the same Node flags), rate limit off. */
export function startProject(
  databaseUrl: string,
  { dir = root, env = {}, name = 'project', nodeFlags = [] }: ProjectOptions = {},
): Promise<BenchServer> {
  const start = startScript(dir);
  return launch(
    name,
    [...start.flags, ...nodeFlags, join(dir, 'dist/cli/main.js'), 'serve'],
    { ...start.env, DATABASE_URL: databaseUrl, NODE_ENV: 'production', RATE_LIMIT_PER_MINUTE: '0', MESSAGE_DELIVERY: 'false', ...env },
    dir,
  );
}

/** The floor: bare `node:http` doing the same work (bench/floor-server.ts); `nodeFlags` as for the project. */
export function startFloor(databaseUrl: string, nodeFlags: string[] = []): Promise<BenchServer> {
  return launch('floor', [...nodeFlags, '--import', 'tsx', join(root, 'bench/floor-server.ts')], { DATABASE_URL: databaseUrl });
}

/** A GraphQL server a team could pick instead of this project: its own file under bench/peers. */
export interface Peer {
  name: string;
  /** Under bench/peers. */
  file: string;
  env?: Record<string, string>;
  /** What it does and does not do, for the table's reader. */
  does: string;
  /**
   * The folder of its own packages under bench/peers (`npm ci --prefix bench/peers/<folder>`), or
   * null: graphql-yoga is the project's own.
   */
  packages: '.' | 'postgraphile' | null;
  /** The engines it runs on: PostGraphile is PostgreSQL's alone. */
  engines: readonly ('sqlite' | 'postgres')[];
  /** The query it is sent, where its schema names the list otherwise (the project's list query by default). */
  query?: string;
  /** Sent the REST list (`GET /v1/pets?limit=20`) instead, and held to the project's REST answer. */
  rest?: true;
  /** Its answer as compared with the project's, where its schema's types differ (the same bytes by default). */
  normalize?: (body: string) => string;
}

const BOTH = ['sqlite', 'postgres'] as const;

export const PEERS: readonly Peer[] = [
  {
    // The fair anchor: what a team gets with Mercurius's ecosystem configured as its docs show.
    name: 'Mercurius 16 + graphql-jit, shipped as its plugins’ docs show (Fastify 5)',
    file: 'mercurius-server.ts',
    env: { MERCURIUS_JIT: '1', MERCURIUS_SHIPPED: '1' },
    does: "JIT; Fastify's request log (two lines), @fastify/helmet, @fastify/rate-limit per credential, queryDepth 8",
    packages: '.',
    engines: BOTH,
  },
  {
    // Issue 55's GraphQL target: Mercurius + JIT with one access line and a rate limit.
    name: 'Mercurius 16 + graphql-jit, one access line and a rate limit (Fastify 5)',
    file: 'mercurius-server.ts',
    env: { MERCURIUS_JIT: '1', MERCURIUS_EDGE: '1' },
    does: 'JIT; one access line (an onResponse hook through the request logger), @fastify/rate-limit per credential',
    packages: '.',
    engines: BOTH,
  },
  {
    name: 'Mercurius 16 + graphql-jit (Fastify 5)',
    file: 'mercurius-server.ts',
    env: { MERCURIUS_JIT: '1' },
    does: 'query cache, JIT after the first run; no limits, no log',
    packages: '.',
    engines: BOTH,
  },
  { name: 'Mercurius 16 (Fastify 5)', file: 'mercurius-server.ts', does: 'query cache; no limits, no log', packages: '.', engines: BOTH },
  {
    name: 'Apollo Server 5 (standalone)',
    file: 'apollo-server.ts',
    does: 'document cache, CSRF check; no limits, no log',
    packages: '.',
    engines: BOTH,
    // Apollo ends its body with a newline.
    normalize: (body) => body.replace(/\n$/, ''),
  },
  {
    name: 'graphql-yoga 5 on `node:http`',
    file: 'yoga-server.ts',
    does: 'parse and validation caches; no limits, no log',
    packages: null,
    engines: BOTH,
  },
  {
    // The REST list's anchor: this project's features without its layers (issue 55).
    name: 'the REST list by hand, every feature of this project’s in one route (Fastify 5)',
    file: 'rest-by-hand.ts',
    does: 'request id, key check and usage, rate limit, query check, the versions read and ETag, Link, access line; one route, no layers',
    packages: '.',
    engines: ['sqlite'],
    rest: true,
  },
  {
    name: 'the REST list by hand, rate limit and access line off (Fastify 5)',
    file: 'rest-by-hand.ts',
    env: { REST_BY_HAND_LEAN: '1' },
    does: 'the above, without the rate limit and the access line',
    packages: '.',
    engines: ['sqlite'],
    rest: true,
  },
  {
    name: 'PostGraphile 4 (`node:http`)',
    file: 'postgraphile/postgraphile-server.ts',
    does: 'the schema read from the database, one SQL statement per query; no limits, no log',
    packages: 'postgraphile',
    engines: ['postgres'],
    query: '{ pets: allPets(first: 20, orderBy: ID_ASC) { nodes { id name categoryId status } } }',
    // PostgreSQL's bigint is PostGraphile's BigInt scalar, a string: categoryId is the project's Int.
    normalize: (body) => body.replace(/"categoryId":"(\d+)"/g, '"categoryId":$1'),
  },
];

/** Whether a peer's own packages are installed (they are not the product's dependencies). */
export const peerInstalled = (peer: Peer): boolean =>
  peer.packages === null || existsSync(join(root, 'bench/peers', peer.packages, 'node_modules/graphql'));

/** A peer over the floor's database, in production mode, as its docs set it up. */
export function startPeer(peer: Peer, databaseUrl: string, nodeFlags: string[] = []): Promise<BenchServer> {
  return launch(peer.name, [...nodeFlags, '--import', 'tsx', join(root, 'bench/peers', peer.file)], {
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    ...peer.env,
  });
}
