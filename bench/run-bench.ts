// npm run bench [-- --duration 10 --connections 32 --rounds 3 --smoke]
// Floor and project are measured in the same run, interleaved, and compared by ratio:
// absolute numbers on a shared machine mean little, ratios measured side by side do.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { petCursor } from '../src/services/pets/index.ts';
import { buildProject, seedDatabase, startFloor, startProject, startYogaCeiling } from './bench-servers.ts';
import type { BenchServer } from './bench-servers.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
    pets: { type: 'string', default: '5000' },
    'scale-pets': { type: 'string', default: '1000000' },
    smoke: { type: 'boolean', default: false },
  },
});
const smoke = values.smoke ?? false;
const duration = smoke ? 1 : Number(values.duration);
const connections = smoke ? 4 : Number(values.connections);
const rounds = smoke ? 1 : Number(values.rounds);
const petCount = smoke ? 500 : Number(values.pets);
const scalePets = smoke ? 20_000 : Number(values['scale-pets']);

interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  auth?: boolean;
}
interface Scenario {
  name: string;
  floor: Request;
  project: Request;
  expectStatus: 2 | 4;
}
interface Run {
  rps: number;
  /** Mean latency, ms with decimals (p50/p99 are whole ms). */
  mean: number;
  p50: number;
  p99: number;
  errors: number;
  unexpected: number;
}

interface Side {
  server: BenchServer;
  request: Request;
  key: string;
}

/** A warm-up (JIT, caches, connections; not measured), then interleaved rounds: a, b, a, b … */
async function sideBySide(a: Side, b: Side, expectStatus: 2 | 4): Promise<[Run[], Run[]]> {
  for (const side of [a, b]) await load(side.server, side.request, side.key, Math.min(2, duration), expectStatus);
  const ra: Run[] = [];
  const rb: Run[] = [];
  for (let r = 0; r < rounds; r++) {
    ra.push(await load(a.server, a.request, a.key, duration, expectStatus));
    rb.push(await load(b.server, b.request, b.key, duration, expectStatus));
  }
  return [ra, rb];
}

const faulty = (runs: Run[]) => runs.reduce((s, x) => s + x.errors + x.unexpected, 0);

const gql = (query: string): Request => ({ method: 'POST', path: '/graphql', body: JSON.stringify({ query }) });
const list: Request = { method: 'GET', path: '/v1/pets?limit=20' };
const gqlList = gql('{ pets(first: 20) { nodes { id name categoryId status } } }');
const create: Request = { method: 'POST', path: '/v1/pets', body: JSON.stringify({ name: 'Bench', categoryId: 7 }) };
const scenarios: Scenario[] = [
  { name: 'GET /v1/pets?limit=20', floor: list, project: list, expectStatus: 2 },
  { name: 'GraphQL pets(first: 20)', floor: list, project: gqlList, expectStatus: 2 },
  { name: 'POST /v1/pets', floor: create, project: create, expectStatus: 2 },
  {
    name: 'GraphQL createPet',
    floor: create,
    project: gql('mutation { createPet(input: { name: "Bench", categoryId: 7 }) { id name categoryId status } }'),
    expectStatus: 2,
  },
  {
    name: 'GET /v1/pets/{id}',
    floor: { method: 'GET', path: '/v1/pets/42' },
    project: { method: 'GET', path: '/v1/pets/42' },
    expectStatus: 2,
  },
  {
    name: '401 rejection',
    floor: { method: 'GET', path: '/v1/pets', auth: false },
    project: { method: 'GET', path: '/v1/pets', auth: false },
    expectStatus: 4,
  },
];

async function load(server: BenchServer, request: Request, key: string, seconds: number, expectStatus: 2 | 4): Promise<Run> {
  let unexpected = 0;
  const result = await autocannon({
    url: `${server.origin}${request.path}`,
    method: request.method,
    connections,
    pipelining: 1,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...(request.auth === false ? {} : { authorization: `Bearer ${key}` }) },
    ...(request.body ? { body: request.body } : {}),
    setupClient: (client) => {
      client.on('response', (statusCode: number) => {
        if (Math.floor(statusCode / 100) !== expectStatus) unexpected++;
      });
    },
  });
  return {
    rps: result.requests.average,
    mean: result.latency.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    unexpected,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const fmt = (n: number, digits = 0) => n.toFixed(digits);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const failures: string[] = [];
  try {
    console.log(
      `Bench: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${connections} connections, ${duration} s × ${rounds} rounds, ${petCount} pets${smoke ? ' (smoke)' : ''}`,
    );
    buildProject();
    const floorDb = join(dir, 'floor.db');
    const projectDb = join(dir, 'project.db');
    const key = await seedDatabase(floorDb, petCount);
    const projectKey = await seedDatabase(projectDb, petCount);
    const floor = await startFloor(floorDb);
    const project = await startProject(projectDb);

    const rows: string[] = [];
    for (const scenario of scenarios) {
      const [f, p] = await sideBySide(
        { server: floor, request: scenario.floor, key },
        { server: project, request: scenario.project, key: projectKey },
        scenario.expectStatus,
      );
      const pr = { rps: median(p.map((x) => x.rps)), p50: median(p.map((x) => x.p50)), p99: median(p.map((x) => x.p99)) };
      const fr = { rps: median(f.map((x) => x.rps)) };
      const errors = p.reduce((s, x) => s + x.errors, 0);
      const unexpected = p.reduce((s, x) => s + x.unexpected, 0);
      if (faulty(f) + faulty(p) > 0) failures.push(scenario.name);
      rows.push(
        `| ${scenario.name} | ${fmt(pr.rps)} | ${fmt(fr.rps)} | **${fmt(pr.rps / fr.rps, 2)}** | ${pr.p50} | ${pr.p99} | ${fmt(pr.p99 / Math.max(pr.p50, 1), 1)} | ${errors} | ${unexpected} |`,
      );
    }
    const rss = project.peakRssMb();
    const floorRss = floor.peakRssMb();
    await project.stop();

    // The GraphQL target against what Yoga itself does here, with nothing of this project.
    const ceiling = await startYogaCeiling(floorDb);
    const [f, y] = await sideBySide({ server: floor, request: list, key }, { server: ceiling, request: gqlList, key }, 2);
    if (faulty(f) + faulty(y) > 0) failures.push('yoga ceiling');
    const floorRps = median(f.map((x) => x.rps));
    const yogaRps = median(y.map((x) => x.rps));
    await ceiling.stop();
    await floor.stop();

    console.log('\n| scenario | project req/s | floor req/s | ratio | p50 ms | p99 ms | p99/p50 | errors | unexpected status |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const row of rows) console.log(row);
    console.log(`\nPeak RSS: project ${rss} MB, floor ${floorRss} MB`);
    console.log(
      `\nYoga ceiling: bare graphql-yoga on node:http, the floor's statement and auth, none of this project: ${fmt(yogaRps)} req/s vs floor ${fmt(floorRps)} = **${fmt(yogaRps / floorRps, 2)}** (GraphQL list target 0.60)`,
    );

    // Scale: a page deep in a large table should cost what the first page costs (keyset pagination).
    const scaleDb = join(dir, 'scale.db');
    const scaleKey = await seedDatabase(scaleDb, scalePets);
    const big = await startProject(scaleDb);
    const deep = petCursor({ id: scalePets - 1000 });
    const pages: [string, string][] = [
      ['first page', '/v1/pets?limit=20'],
      ['deep page', `/v1/pets?limit=20&cursor=${deep}`],
      ['first page, status=sold', '/v1/pets?limit=20&status=sold'],
      ['deep page, status=sold', `/v1/pets?limit=20&status=sold&cursor=${deep}`],
    ];
    const latency: Record<string, number> = {};
    for (const [, path] of pages) await load(big, { method: 'GET', path }, scaleKey, Math.min(2, duration), 2);
    for (const [label, path] of pages) {
      const runs: Run[] = [];
      for (let r = 0; r < rounds; r++) runs.push(await load(big, { method: 'GET', path }, scaleKey, duration, 2));
      latency[label] = median(runs.map((x) => x.mean));
      if (runs.some((x) => x.errors + x.unexpected > 0)) failures.push(label);
    }
    await big.stop();
    const ratio = (deepLabel: string, firstLabel: string) => {
      const deepMs = latency[deepLabel] ?? 0;
      const firstMs = latency[firstLabel] ?? 0;
      return `${fmt(deepMs, 2)} / ${fmt(firstMs, 2)} ms = ${firstMs > 0 ? fmt(deepMs / firstMs, 2) : 'n/a'}`;
    };
    console.log(`\nScale (${scalePets} pets, ${connections} connections), mean latency, deep page / first page:`);
    console.log(`  no filter:     ${ratio('deep page', 'first page')}`);
    console.log(`  status=sold:   ${ratio('deep page, status=sold', 'first page, status=sold')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`\nErrors or unexpected statuses in: ${failures.join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
