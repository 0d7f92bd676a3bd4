// npm run bench -- --profile NAME [--env K=V,… --engine postgres --duration 10]: where the
// project's CPU goes under the bench's own load for one scenario, sampled on-CPU (perf's
// cpu-clock on a server run with --perf-basic-prof, every thread of it), in µs per request.
// V8's --cpu-prof samples wall time: on a busy two-core machine a thread descheduled in a system
// call is blamed on whatever frame was running, which once put 83 µs a request in SQLite.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDatabase } from './bench-database.ts';
import type { BenchDatabase, BenchEngine } from './bench-database.ts';
import { faulty, fmt, load } from './bench-load.ts';
import { latestCode } from './latest-code.ts';
import type { LoadSettings, Request, Status } from './bench-load.ts';
import { startFloor, startPeer, startProject } from './bench-servers.ts';
import type { BenchServer, Peer } from './bench-servers.ts';

export interface ProfileOptions {
  engine: BenchEngine;
  dir: string;
  petCount: number;
  settings: LoadSettings;
  /** `floor` null where the floor has no such request; `setup` run against the project's server before its load (the orders page's orders). */
  scenario: {
    name: string;
    project: Request;
    floor: Request | null;
    expectStatus: Status;
    setup?: (origin: string, key: string) => Promise<void>;
  };
  /**
   * Whose CPU: the project's, the floor's under the scenario's floor request (what any server
   * pays), or a peer's under the project's request (`--peer`: the REST list by hand).
   */
  side: 'project' | 'floor' | Peer;
  env: Record<string, string>;
  databases: BenchDatabase[];
  /** Rows of each table. */
  top: number;
}

/** One sample: the CPU it stands for (ns) and its frames, innermost first, as `symbol (dso)`. */
interface Sample {
  ns: number;
  frames: { symbol: string; dso: string }[];
}

/** `perf script`'s text: a period line, then one line a frame (`addr symbol (dso)`), a blank line between samples. */
function samplesOf(script: string): Sample[] {
  const samples: Sample[] = [];
  let current: Sample | null = null;
  for (const line of script.split('\n')) {
    if (line.trim() === '') {
      current = null;
      continue;
    }
    if (!line.startsWith('\t')) {
      current = { ns: Number(line.trim().split(/\s+/).at(-1)) || 0, frames: [] };
      samples.push(current);
      continue;
    }
    const match = /^\t\s*[0-9a-f]+ (.*) \(([^()]*)\)$/.exec(line);
    if (match && current) current.frames.push({ symbol: match[1] ?? '', dso: match[2] ?? '' });
  }
  return samples;
}

/** `JS:*name /path/file.js:12:3` (--perf-basic-prof): the file, or null for a frame that is not JavaScript. */
function scriptOf(symbol: string): string | null {
  if (!/^(?:JS|LazyCompile|Function|Script):/.test(symbol)) return null;
  const match = /\s(\S+?)(?::\d+){0,2}$/.exec(symbol);
  return match?.[1] ?? '';
}

/** Where a script belongs: the project's folder under dist/ (its src/ folder), a package, or Node's own. */
function areaOfScript(script: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(script);
  if (pkg) return `package ${pkg[1]}`;
  const own = /\/dist\/([^/]+)\//.exec(script);
  if (own) return `project src/${own[1]}`;
  if (script.startsWith('node:')) return 'Node (JavaScript)';
  if (script.includes('/bench/peers/')) return 'the peer (bench/peers)';
  if (script.includes('/bench/')) return 'the floor (bench/floor-server.ts)';
  return 'other JavaScript';
}

const COMPILER =
  /v8::internal::compiler::|v8::internal::maglev::|Baseline|CompileLazy|v8::internal::Parser|v8::internal::Compiler|Bytecode/;
const GC = /Heap|Scavenge|MarkCompact|Marking|Sweep|Evacuat|GCTracer|MinorMC|Compactor|RecordWrite|Allocat/;

/**
 * The part of the server one sample's CPU went to, by its innermost frame: the kernel, garbage
 * collection (V8's collector and write barrier, on any thread), V8's compilers, SQLite, else
 * the nearest JavaScript frame's area (so V8's builtins and runtime count for the code that called
 * them), else V8 and native code with no JavaScript above.
 */
function areaOf(sample: Sample): string {
  const leaf = sample.frames[0];
  if (!leaf) return 'unknown';
  if (leaf.dso.includes('kernel')) return 'kernel (system calls, network)';
  if (GC.test(leaf.symbol)) return 'garbage collection';
  if (COMPILER.test(leaf.symbol)) return 'V8 compiling (parse, baseline, optimising)';
  if (/better_sqlite3|sqlite3/.test(leaf.dso) || /^sqlite3/.test(leaf.symbol)) return 'SQLite (better-sqlite3)';
  for (const frame of sample.frames) {
    const script = scriptOf(frame.symbol);
    if (script !== null) return areaOfScript(script);
  }
  return 'native, no JavaScript frame found (V8 runtime, libuv, allocator)';
}

/**
 * A file as a table shows it: a package's by the package (`graphql-jit/dist/runtime.js`), the
 * build's from `dist/`, with the checkout's path cut; `|` escaped for the table.
 */
export function shownPath(text: string): string {
  const cut = text.includes('/node_modules/') ? text.replace(/\S*\/node_modules\//, '') : text.replace(/\S*\/dist\//, 'dist/');
  return cut.replace(/\|/g, '\\|');
}

/** A frame's name as a table shows it: the function and where it is. */
function shownFrame(symbol: string): string {
  return shownPath(symbol.replace(/^(?:JS|LazyCompile|Function|Script):[*~^+-]?/, ''));
}

/** Rows by cost, largest first, as a Markdown table: cost a request (`unit`, `digits` after the point) and share of `total`. */
export function table(
  title: string,
  rows: [string, number][],
  perRequest: (cost: number) => number,
  total: number,
  top: number,
  { unit = 'µs/req', digits = 1 } = {},
): string {
  const lines = [`\n${title}\n`, `| | ${unit} | share |`, '| --- | ---: | ---: |'];
  for (const [name, cost] of rows.sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`| ${name} | ${fmt(perRequest(cost), digits)} | ${fmt((100 * cost) / total, 1)}% |`);
  }
  return lines.join('\n');
}

/** The request a side is profiled under: the floor's, where it has one. */
export function sideRequest(scenario: ProfileOptions['scenario'], floor: boolean): Request {
  if (!floor) return scenario.project;
  if (!scenario.floor) throw new Error(`--floor: the floor has no request for "${scenario.name}"`);
  return scenario.floor;
}

/** The side as a title names it. */
export const sideName = (side: ProfileOptions['side']): string =>
  side === 'floor' ? 'the floor' : side === 'project' ? 'the project' : side.name;

/** The side's server, started with `nodeFlags`: the project (named `name`) with the options' settings, the floor, or a peer. */
export function startSide(options: ProfileOptions, databaseUrl: string, nodeFlags: string[], name: string): Promise<BenchServer> {
  const { side, env } = options;
  if (side === 'floor') return startFloor(databaseUrl, nodeFlags);
  if (side === 'project') return startProject(databaseUrl, { env, nodeFlags, name });
  return startPeer(side, databaseUrl, nodeFlags);
}

/** The project under the scenario's load, warmed up, then one round recorded by perf; its CPU by area and by function. */
export async function profileServer(options: ProfileOptions): Promise<boolean> {
  const { engine, dir, petCount, settings, scenario, databases, top } = options;
  const db = await benchDatabase(engine, dir, 'profiled', petCount);
  databases.push(db);
  // --perf-basic-prof also turns on V8's log: into the bench's own folder, not the checkout.
  const nodeFlags = ['--perf-basic-prof', `--logfile=${join(dir, 'v8.log')}`, '--no-logfile-per-isolate'];
  const floor = options.side === 'floor';
  // Before the server starts: a scenario the floor has no request for ends here, leaving nothing running.
  const request = sideRequest(scenario, floor);
  const server = await startSide(options, db.url, nodeFlags, 'profiled');
  const side = { server, request, key: db.key };
  const data = join(dir, 'perf.data');
  let stopping: Promise<void> | undefined;
  try {
    if (options.side === 'project') await scenario.setup?.(server.origin, db.key);
    // As long as the recording, at least 2 s: one round has no later round to hide the server's
    // first-seconds work (serializers compiled, source maps read), and after 2 s of load a 5 s
    // recording still held it: 168 µs a cached GraphQL answer against 78 after a longer run.
    if (settings.warmUp) await load(side, Math.max(2, settings.duration), scenario.expectStatus, settings.connections);
    const perf = spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-F', '999', '-g', '-p', String(server.process.pid), '-o', data], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // A perf that cannot start (not installed) emits 'error' and never 'exit': either ends the wait.
    let status: string | null = null;
    const exited = new Promise<string>((resolve) => {
      perf.once('exit', (code, signal) => resolve((status = `${code ?? signal}`)));
      perf.once('error', (error) => resolve((status = `${error.message} (Debian's linux-perf)`)));
    });
    // perf writes its file's header once it is attached.
    for (let i = 0; i < 100 && status === null && !existsSync(data); i++) await new Promise((r) => setTimeout(r, 50));
    if (status !== null) throw new Error(`perf record ended before the load: ${status}`);
    const run = await load(side, settings.duration, scenario.expectStatus, settings.connections);
    perf.kill('SIGINT');
    // perf ends with its own status, or by the signal where it was stopped before writing.
    const ended = await exited;
    if (ended !== '0' && ended !== 'SIGINT') throw new Error(`perf record ended with ${ended}`);
    // The server ends before its symbol map is rewritten: nothing more is appended to it.
    await (stopping ??= server.stop());
    const map = `/tmp/perf-${server.process.pid}.map`;
    if (existsSync(map)) writeFileSync(map, latestCode(readFileSync(map, 'utf8')));
    const script = execFileSync('perf', ['script', '-i', data, '-F', 'period,ip,sym,dso'], {
      encoding: 'utf8',
      maxBuffer: 1024 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const samples = samplesOf(script);
    const requests = run.requests;
    const total = samples.reduce((sum, s) => sum + s.ns, 0);
    const perRequest = (ns: number) => (requests > 0 ? ns / 1000 / requests : 0);
    const areas = new Map<string, number>();
    const self = new Map<string, number>();
    const ownJs = new Map<string, number>();
    const inclusive = new Map<string, number>();
    for (const sample of samples) {
      const area = areaOf(sample);
      areas.set(area, (areas.get(area) ?? 0) + sample.ns);
      const leaf = sample.frames[0];
      if (leaf) self.set(shownFrame(leaf.symbol), (self.get(shownFrame(leaf.symbol)) ?? 0) + sample.ns);
      // Where the area is a script's, the function it counted for: a megamorphic load or a string
      // join shows up under whoever called it, which the self table cannot say.
      const caller =
        area.startsWith('project') || area.startsWith('package') || area.startsWith('Node')
          ? sample.frames.find((f) => scriptOf(f.symbol) !== null)
          : undefined;
      if (caller) ownJs.set(shownFrame(caller.symbol), (ownJs.get(shownFrame(caller.symbol)) ?? 0) + sample.ns);
      // Each JavaScript function once per sample, however deep it recurses.
      const seen = new Set<string>();
      for (const frame of sample.frames) if (scriptOf(frame.symbol) !== null) seen.add(shownFrame(frame.symbol));
      for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + sample.ns);
    }
    console.log(
      `\nOn-CPU profile of ${sideName(options.side)} under "${scenario.name}" (${engine}, ${settings.connections} connections, ${settings.duration} s)`,
    );
    console.log(
      `${requests} requests, ${samples.length} samples at 999 Hz on every thread: ${fmt(perRequest(total), 1)} µs/req sampled, ${fmt(run.cpu, 1)} µs/req by /proc.`,
    );
    console.log(
      table('By area (the innermost frame; V8 builtins count for the JavaScript that called them):', [...areas], perRequest, total, top),
    );
    console.log(table('By function, self:', [...self], perRequest, total, top));
    console.log(
      table('By JavaScript function, self with the V8 builtins it called (as the areas count):', [...ownJs], perRequest, total, top),
    );
    console.log(table('By JavaScript function, with what it calls:', [...inclusive], perRequest, total, top));
    // A profile that cannot be read (perf attached late, stacks unparsed) must not pass for one.
    const accounted = perRequest(total) / run.cpu;
    if (!(accounted > 0.5)) {
      console.error(`perf's samples account for ${fmt(100 * accounted)}% of the CPU time /proc counts: not a profile to read.`);
      return false;
    }
    return faulty([run]) === 0;
  } finally {
    await (stopping ?? server.stop());
    // --perf-basic-prof's symbol map, which perf script has read.
    rmSync(`/tmp/perf-${server.process.pid}.map`, { force: true });
  }
}
