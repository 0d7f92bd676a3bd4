// The load generator and the statistics both bench modes share: autocannon against one server,
// server CPU time per request from /proc, and interleaved rounds of two servers.
import autocannon from 'autocannon';
import { cpuMicros } from './bench-servers.ts';
import { Latencies } from './latencies.ts';
import type { BenchServer } from './bench-servers.ts';

export interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  auth?: boolean;
  headers?: Record<string, string>;
  /** Sent with If-None-Match: the ETag a first GET got (a revalidation, 304 while nothing changes). */
  revalidate?: boolean;
  /** The status class this side answers, where it differs from the scenario's (a 304 beside the floor's 200). */
  expect?: Status;
}

export type Status = 2 | 3 | 4;

export interface Run {
  rps: number;
  /** Server CPU time per request, µs. */
  cpu: number;
  /** Mean, median and 99th percentile latency, ms, read to the microsecond from every answer of the expected class. */
  mean: number;
  p50: number;
  p99: number;
  errors: number;
  unexpected: number;
  /** Requests answered in the run. */
  requests: number;
}

export interface Side {
  server: BenchServer;
  request: Request;
  key: string;
}

export interface LoadSettings {
  connections: number;
  /** Seconds per round. */
  duration: number;
  rounds: number;
  /** Each side loaded first, unmeasured; false only in the smoke, which proves a run, not a figure. */
  warmUp: boolean;
}

export const gql = (query: string): Request => ({ method: 'POST', path: '/graphql', body: JSON.stringify({ query }) });
/** The same query run every time: Cache-Control: no-cache skips the response cache (what executing it costs). */
export const gqlRun = (query: string): Request => ({ ...gql(query), headers: { 'cache-control': 'no-cache' } });

/** A tools/call over MCP as an SDK 1.x client sends it (2025-11-25, one JSON-RPC message per POST). */
export const mcpCall = (tool: string, args: Record<string, unknown>): Request => ({
  method: 'POST',
  path: '/mcp',
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
  headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
});

/** What one request of a side answers: status and body, as the load will send it. */
export async function answerOf({ server, request, key }: Side): Promise<{ status: number; body: string }> {
  const auth: Record<string, string> = request.auth === false ? {} : { authorization: `Bearer ${key}` };
  const response = await fetch(`${server.origin}${request.path}`, {
    method: request.method,
    headers: { 'content-type': 'application/json', ...auth, ...request.headers },
    ...(request.body ? { body: request.body } : {}),
  });
  return { status: response.status, body: await response.text() };
}

export async function load({ server, request, key }: Side, seconds: number, scenarioStatus: Status, connections: number): Promise<Run> {
  let unexpected = 0;
  const latencies = new Latencies();
  const expectStatus = request.expect ?? scenarioStatus;
  const auth: Record<string, string> = request.auth === false ? {} : { authorization: `Bearer ${key}` };
  const headers: Record<string, string> = { 'content-type': 'application/json', ...auth, ...request.headers };
  if (request.revalidate) {
    const first = await fetch(`${server.origin}${request.path}`, { headers });
    await first.text();
    headers['if-none-match'] = first.headers.get('etag') ?? '"none"';
  }
  const cpuBefore = cpuMicros(server.process.pid ?? 0);
  const result = await autocannon({
    url: `${server.origin}${request.path}`,
    method: request.method,
    connections,
    pipelining: 1,
    duration: seconds,
    headers,
    ...(request.body ? { body: request.body } : {}),
    setupClient: (client) => {
      client.on('response', (statusCode: number, _bytes: number, ms: number) => {
        if (Math.floor(statusCode / 100) !== expectStatus) unexpected++;
        else latencies.add(ms);
      });
    },
  });
  const cpu = cpuMicros(server.process.pid ?? 0) - cpuBefore;
  const [p50 = 0, p99 = 0] = latencies.percentiles(50, 99);
  return {
    rps: result.requests.average,
    cpu: result.requests.total > 0 ? cpu / result.requests.total : 0,
    mean: latencies.mean(),
    p50,
    p99,
    errors: result.errors + result.timeouts,
    unexpected,
    requests: result.requests.total,
  };
}

/** A warm-up (JIT, caches, connections; not measured), then interleaved rounds: a, b, a, b … */
export async function sideBySide(a: Side, b: Side, expectStatus: Status, settings: LoadSettings): Promise<[Run[], Run[]]> {
  if (settings.warmUp) for (const side of [a, b]) await load(side, Math.min(2, settings.duration), expectStatus, settings.connections);
  const ra: Run[] = [];
  const rb: Run[] = [];
  // Which side goes first alternates: a side that always ran first or second could carry a bias
  // of its position (the same build against itself read +4.4% and +4.7% with a fixed order).
  for (let r = 0; r < settings.rounds; r++) {
    const order: [Side, Run[]][] =
      r % 2 === 0
        ? [
            [a, ra],
            [b, rb],
          ]
        : [
            [b, rb],
            [a, ra],
          ];
    for (const [side, runs] of order) runs.push(await load(side, settings.duration, expectStatus, settings.connections));
  }
  return [ra, rb];
}

export const faulty = (runs: Run[]) => runs.reduce((s, x) => s + x.errors + x.unexpected, 0);
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
/** CPU per request is taken as the least of the rounds: noise on a shared machine only adds. */
export const least = (xs: number[]) => Math.min(...xs);
export const fmt = (n: number, digits = 0) => n.toFixed(digits);
/** p99 over p50, one decimal; "-" when nothing was answered. */
export const tail = (p50: number, p99: number) => (p50 > 0 ? fmt(p99 / p50, 1) : '-');
