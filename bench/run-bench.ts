// npm run bench [-- --engine sqlite|postgres --duration 10 --connections 32 --rounds 3 --smoke]
// npm run bench -- --baseline-rev REV | --baseline-env K=V,… [--env K=V,… --only NAME,…]: builds compared (compare-builds.ts)
// npm run bench -- --peers NAME,…: the peer table alone, with the contenders whose names hold a NAME (all with --peers "")
// npm run bench -- --profile NAME [--env K=V,… --floor | --peer NAME]: the project's (or the floor's, or a peer's) CPU under one scenario, on-CPU, by area and function (profile-server.ts)
// npm run bench -- --profile NAME --allocations [--floor | --peer NAME]: the heap bytes a request allocates instead, and where (allocation-profile.ts)
// npm run bench -- --profile NAME --promises [--floor | --peer NAME]: the promises a request makes instead, and where (promise-count.ts)
// Floor and project are measured in the same run, interleaved, and compared by ratio:
// absolute numbers on a shared machine mean little, ratios measured side by side do. Server
// CPU time per request (user + system, from /proc) is the steadier yardstick; req/s is
// capped by the load generator sharing the machine's two cores.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { petCursor } from '../src/services/pets/index.ts';
import { defaultDocuments } from '../src/mcp/default-documents.ts';
import { petstoreSchema } from '../src/graphql/petstore-schema.ts';
import { benchDatabase } from './bench-database.ts';
import type { BenchDatabase, BenchEngine } from './bench-database.ts';
import { answerOf, faulty, fmt, gql, gqlRun, least, load, mcpCall, median, sideBySide, tail } from './bench-load.ts';
import type { Status } from './bench-load.ts';
import type { LoadSettings, Request, Run } from './bench-load.ts';
import { envOf } from '../test/helpers/start-script.ts';
import { buildProject, PEERS, peerInstalled, startFloor, startPeer, startProject } from './bench-servers.ts';
import type { BenchServer } from './bench-servers.ts';
import { compareBuilds } from './compare-builds.ts';
import { profileServer } from './profile-server.ts';
import { allocationProfile } from './allocation-profile.ts';
import { promiseCount } from './promise-count.ts';
import { ordersPage } from './orders-page.ts';
import { commentPadded, doublingChain, wideSpreads } from './abusive-documents.ts';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'sqlite' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '3' },
    pets: { type: 'string', default: '5000' },
    'scale-pets': { type: 'string', default: '1000000' },
    'scale-only': { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    'baseline-rev': { type: 'string' },
    'baseline-env': { type: 'string', default: '' },
    env: { type: 'string', default: '' },
    only: { type: 'string', default: '' },
    peers: { type: 'string' },
    peer: { type: 'string' },
    profile: { type: 'string' },
    floor: { type: 'boolean', default: false },
    allocations: { type: 'boolean', default: false },
    promises: { type: 'boolean', default: false },
    top: { type: 'string', default: '30' },
  },
});
if (values.engine !== 'sqlite' && values.engine !== 'postgres')
  throw new Error(`--engine must be sqlite or postgres (got ${values.engine})`);
const engine: BenchEngine = values.engine;
const smoke = values.smoke ?? false;
const duration = smoke ? 1 : Number(values.duration);
const connections = smoke ? 4 : Number(values.connections);
const rounds = smoke ? 1 : Number(values.rounds);
const petCount = smoke ? 500 : Number(values.pets);
const scalePets = smoke ? 20_000 : Number(values['scale-pets']);
const scaleOnly = values['scale-only'] ?? false;
// The smoke (CI) measures nothing: no warm-up, one round of a second.
const settings: LoadSettings = { connections, duration, rounds, warmUp: !smoke };

/** `K=V,K=V` as an environment. */
const envList = (text: string) => envOf(text.split(',').filter(Boolean));
const baselineEnv = envList(values['baseline-env'] ?? '');
const projectEnv = envList(values.env ?? '');
const profiling = values.profile;
const comparing = values['baseline-rev'] !== undefined || Object.keys(baselineEnv).length > 0 || Object.keys(projectEnv).length > 0;

interface Scenario {
  name: string;
  floor: Request;
  project: Request;
  expectStatus: Status;
}

const list: Request = { method: 'GET', path: '/v1/pets?limit=20' };
const GQL_LIST_QUERY = '{ pets(first: 20) { nodes { id name categoryId status } } }';
const gqlList = gql(GQL_LIST_QUERY);
/** The default tool list_pets's operation, as its own document. */
const LIST_PETS =
  defaultDocuments(petstoreSchema())
    .split('\n\n')
    .find((block) => block.includes('query list_pets'))
    ?.replace(/^#.*\n/gm, '') ?? '';
/** list_pets's operation sent over GraphQL, its text alone as a front end sends it, and the tool call an agent sends. */
const listPetsOperation: Request = { ...gql(LIST_PETS), body: JSON.stringify({ query: LIST_PETS, variables: { first: 20 } }) };
const listPetsCall = mcpCall('list_pets', { first: 20 });
const create: Request = { method: 'POST', path: '/v1/pets', body: JSON.stringify({ name: 'Bench', categoryId: 7 }) };
const scenarios: Scenario[] = [
  { name: 'GET /v1/pets?limit=20', floor: list, project: list, expectStatus: 2 },
  // The same page past the response cache: the route runs, as the floor's does, and its answer is kept.
  { name: 'GET /v1/pets?limit=20, uncached', floor: list, project: { ...list, headers: { 'cache-control': 'no-cache' } }, expectStatus: 2 },
  { name: 'GraphQL pets(first: 20)', floor: list, project: gqlList, expectStatus: 2 },
  // The same query past the response cache (a request's Cache-Control: no-cache asks for a fresh run).
  {
    name: 'GraphQL pets(first: 20), uncached',
    floor: list,
    project: { ...gqlList, headers: { 'cache-control': 'no-cache' } },
    expectStatus: 2,
  },
  // What compression costs (COMPRESS_MIN_BYTES): a 1.4 kB and a 7 kB page asked for with Accept-Encoding: br.
  { name: 'GET /v1/pets?limit=20, br', floor: list, project: { ...list, headers: { 'accept-encoding': 'br' } }, expectStatus: 2 },
  {
    name: 'GET /v1/pets?limit=100, br',
    floor: { method: 'GET', path: '/v1/pets?limit=100' },
    project: { method: 'GET', path: '/v1/pets?limit=100', headers: { 'accept-encoding': 'br' } },
    expectStatus: 2,
  },
  // An agent's tool call beside the same operation sent over GraphQL by a client of its own (its
  // text alone, as a front end sends it; neither answer kept): what the MCP face costs over the
  // GraphQL one (issue 48: at most 1.3 times).
  {
    name: 'GraphQL list_pets (the tool’s operation), uncached',
    floor: list,
    project: { ...gqlRun(LIST_PETS), body: listPetsOperation.body },
    expectStatus: 2,
  },
  { name: 'MCP tools/call list_pets', floor: list, project: listPetsCall, expectStatus: 2 },
  { name: 'GET /v1/pets?limit=20 → 304', floor: list, project: { ...list, revalidate: true, expect: 3 }, expectStatus: 2 },
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const databases: BenchDatabase[] = [];
  const failures: string[] = [];
  try {
    console.log(
      `Bench on ${engine}: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${connections} connections, ${duration} s × ${rounds} rounds, ${petCount} pets${smoke ? ' (smoke)' : ''}`,
    );
    buildProject();
    if (profiling !== undefined) {
      // The first scenario whose name holds the text given: `--profile uncached`.
      // The orders page too (`--profile "with pets"`), its orders placed first: the floor has none.
      const profiled = [
        ...scenarios,
        ...[ordersPage.bare, ordersPage.withPets].map((page) => ({ ...page, floor: null, setup: ordersPage.place })),
      ];
      const scenario = profiled.find((s) => s.name.includes(profiling));
      if (!scenario) throw new Error(`--profile: no scenario's name holds "${profiling}" (${profiled.map((s) => s.name).join('; ')})`);
      const peer = values.peer === undefined ? undefined : PEERS.find((p) => p.name.includes(values.peer ?? ''));
      if (values.peer !== undefined && !peer) throw new Error(`--peer: no peer's name holds "${values.peer}"`);
      if (peer && values.floor) throw new Error('--peer and --floor: one side at a time');
      const side = peer ?? (values.floor ? 'floor' : 'project');
      if (values.allocations && values.promises) throw new Error('--allocations and --promises: one at a time');
      const ok = await (values.allocations ? allocationProfile : values.promises ? promiseCount : profileServer)({
        engine,
        dir,
        petCount,
        settings,
        scenario,
        side,
        env: projectEnv,
        databases,
        top: Number(values.top),
      });
      if (!ok) failures.push(scenario.name);
    } else if (comparing) {
      const baseline = { rev: values['baseline-rev'], env: baselineEnv };
      const only = (values.only ?? '').split(',').filter(Boolean);
      const chosen = only.length > 0 ? scenarios.filter((s) => only.some((name) => s.name.includes(name))) : scenarios;
      await compareBuilds({
        engine,
        dir,
        petCount,
        settings,
        baseline,
        projectEnv,
        scenarios: chosen,
        // The pages of orders join when nothing is picked, or when a name picked is `orders`.
        orders: only.length === 0 || only.some((name) => 'GraphQL orders(first: 100)'.includes(name)),
        databases,
        failures,
      });
    } else if (values.peers !== undefined) {
      await peersOnly(dir, databases, failures, values.peers.split(',').filter(Boolean));
    } else {
      const only = (values.only ?? '').split(',').filter(Boolean);
      if (!scaleOnly) await sideBySideScenarios(dir, databases, failures, only);
      // --only picks scenarios to measure beside the floor; the scale run is its own (--scale-only).
      if (only.length === 0) await scale(dir, databases, failures);
    }
  } finally {
    for (const database of databases) await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`\nErrors or unexpected statuses in: ${failures.join(', ')}`);
    process.exitCode = 1;
  }
}

interface PeerRow {
  name: string;
  cpu: number;
  floorCpu: number;
  p50: number;
  p99: number;
  rss: number;
  does: string;
}

/**
 * The project as a team would run it, beside the peers on the same query (and the REST list on
 * the floor's own request): its production settings (the rate limit counting, here at a budget
 * no request reaches, and the access log) and with both off, so the table shows what they cost.
 */
const PROJECT_CONTENDERS: { name: string; env: Record<string, string>; request: 'graphql' | 'rest'; does: string }[] = [
  {
    name: 'this project, GraphQL, response cache off',
    env: { RESPONSE_CACHE: 'false', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
    request: 'graphql',
    does: 'key check and usage, document limits, query cost, trusted documents, Relay pages; no rate limit, no access log',
  },
  {
    name: 'this project, GraphQL, response cache off, production settings',
    env: { RESPONSE_CACHE: 'false', RATE_LIMIT_PER_MINUTE: '1000000' },
    request: 'graphql',
    does: 'the above, with the rate limit and the access log',
  },
  {
    name: 'this project, GraphQL, a cached answer, production settings',
    env: { RATE_LIMIT_PER_MINUTE: '1000000' },
    request: 'graphql',
    does: 'key check and usage, the versions read, the answer kept; rate limit, access log',
  },
  {
    name: 'this project, REST list, production settings',
    env: { RESPONSE_CACHE: 'false', RATE_LIMIT_PER_MINUTE: '1000000' },
    request: 'rest',
    does: 'key check and usage, validation, the versions read and ETag, Link header; rate limit, access log; response cache off',
  },
  {
    name: 'this project, REST list, rate limit and access log off',
    env: { RESPONSE_CACHE: 'false', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
    request: 'rest',
    does: 'the above, without the rate limit and the access log',
  },
  {
    name: 'this project, REST list, a kept answer, production settings',
    env: { RATE_LIMIT_PER_MINUTE: '1000000' },
    request: 'rest',
    does: 'key check and usage, validation, the versions read and ETag, the answer kept; rate limit, access log',
  },
];

/**
 * Each peer, and the project in each setting above, beside the floor on the GraphQL list (the REST
 * rows on the REST list), on the floor's database. One whose answer differs from the expected one
 * by a byte is not timed: it would be measuring other work.
 */
async function peers(
  floor: BenchServer,
  key: string,
  databaseUrl: string,
  expected: { graphql: string; rest: string },
  failures: string[],
  picked: string[] = [],
) {
  const rows: PeerRow[] = [];
  const contenders: {
    name: string;
    does: string;
    start: () => Promise<BenchServer>;
    request: Request;
    expected: string;
    normalize?: (body: string) => string;
  }[] = [];
  for (const peer of PEERS.filter((p) => p.engines.includes(engine))) {
    if (!peerInstalled(peer)) {
      console.log(`\nPeers: ${peer.name} is not installed (npm ci --prefix bench/peers/${peer.packages ?? ''}); left out.`);
      continue;
    }
    contenders.push({
      name: peer.name,
      does: peer.does,
      start: () => startPeer(peer, databaseUrl),
      request: peer.rest ? list : peer.query ? gql(peer.query) : gqlList,
      expected: peer.rest ? expected.rest : expected.graphql,
      ...(peer.normalize ? { normalize: peer.normalize } : {}),
    });
  }
  for (const project of PROJECT_CONTENDERS) {
    contenders.push({
      name: `**${project.name}**`,
      does: project.does,
      start: () => startProject(databaseUrl, { env: project.env, name: project.name }),
      request: project.request === 'graphql' ? gqlList : list,
      expected: project.request === 'graphql' ? expected.graphql : expected.rest,
    });
  }
  for (const contender of contenders.filter((c) => picked.length === 0 || picked.some((name) => c.name.includes(name)))) {
    const server = await contender.start();
    try {
      const answer = await answerOf({ server, request: contender.request, key });
      const body = contender.normalize ? contender.normalize(answer.body) : answer.body;
      if (answer.status !== 200 || body !== contender.expected) {
        console.log(
          `\n${contender.name} answered ${answer.status} ${body.slice(0, 200)}\n  expected 200 ${contender.expected.slice(0, 200)}`,
        );
        failures.push(contender.name);
        continue;
      }
      const [f, p] = await sideBySide({ server: floor, request: list, key }, { server, request: contender.request, key }, 2, settings);
      if (faulty(f) + faulty(p) > 0) failures.push(contender.name);
      rows.push({
        name: contender.name,
        cpu: least(p.map((x) => x.cpu)),
        floorCpu: least(f.map((x) => x.cpu)),
        p50: median(p.map((x) => x.p50)),
        p99: median(p.map((x) => x.p99)),
        rss: server.peakRssMb(),
        does: contender.does,
      });
    } finally {
      await server.stop();
    }
  }
  return rows;
}

function printPeers(peerRows: PeerRow[]): void {
  if (peerRows.length === 0) return;
  peerRows.sort((a, b) => b.floorCpu / b.cpu - a.floorCpu / a.cpu);
  console.log(
    `\nPeers and the project's settings: the same query (${GQL_LIST_QUERY}; the REST rows the list), the same data and key check, each beside the floor, on the floor's database; answers checked byte for byte first.`,
  );
  console.log('\n| server | CPU µs/req | floor CPU µs/req | CPU ratio to the floor | p99/p50 | peak RSS MB | what it does per request |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const row of peerRows)
    console.log(
      `| ${row.name} | ${fmt(row.cpu)} | ${fmt(row.floorCpu)} | **${fmt(row.floorCpu / row.cpu, 2)}** | ${tail(row.p50, row.p99)} | ${row.rss} | ${row.does} |`,
    );
}

/** The floor's database and the project's, seeded alike (the peers run on the floor's). */
async function floorAndProject(dir: string, databases: BenchDatabase[]): Promise<[BenchDatabase, BenchDatabase]> {
  const floorDb = await benchDatabase(engine, dir, 'floor', petCount);
  const projectDb = await benchDatabase(engine, dir, 'project', petCount);
  databases.push(floorDb, projectDb);
  return [floorDb, projectDb];
}

/** `--peers NAME,…`: the peer table alone, with the contenders whose names hold one of NAMES (all when none). */
async function peersOnly(dir: string, databases: BenchDatabase[], failures: string[], picked: string[]): Promise<void> {
  const [floorDb, projectDb] = await floorAndProject(dir, databases);
  const project = await startProject(projectDb.url);
  const expected = await answerOf({ server: project, request: gqlRun(GQL_LIST_QUERY), key: projectDb.key });
  await project.stop();
  const floor = await startFloor(floorDb.url);
  try {
    const expectedRest = await answerOf({ server: floor, request: list, key: floorDb.key });
    printPeers(await peers(floor, floorDb.key, floorDb.url, { graphql: expected.body, rest: expectedRest.body }, failures, picked));
  } finally {
    await floor.stop();
  }
}

/** The project against the floor, scenario by scenario; Order.pet; the peers. */
async function sideBySideScenarios(dir: string, databases: BenchDatabase[], failures: string[], only: string[]): Promise<void> {
  const [floorDb, projectDb] = await floorAndProject(dir, databases);
  const floor = await startFloor(floorDb.url);
  const project = await startProject(projectDb.url);
  // The answer every peer must give, byte for byte, before it is timed: the project's, run
  // before any scenario writes (orders make pets pending) on data seeded as the floor's.
  const expected = await answerOf({ server: project, request: gqlRun(GQL_LIST_QUERY), key: projectDb.key });

  const rows: string[] = [];
  project.windowPeakRssMb(); // the start and the expected answer are not a scenario's
  for (const scenario of only.length > 0 ? scenarios.filter((s) => only.some((name) => s.name.includes(name))) : scenarios) {
    const [f, p] = await sideBySide(
      { server: floor, request: scenario.floor, key: floorDb.key },
      { server: project, request: scenario.project, key: projectDb.key },
      scenario.expectStatus,
      settings,
    );
    const pr = {
      rps: median(p.map((x) => x.rps)),
      cpu: least(p.map((x) => x.cpu)),
      p50: median(p.map((x) => x.p50)),
      p99: median(p.map((x) => x.p99)),
    };
    const fr = { rps: median(f.map((x) => x.rps)), cpu: least(f.map((x) => x.cpu)) };
    if (faulty(f) + faulty(p) > 0) failures.push(scenario.name);
    rows.push(
      `| ${scenario.name} | ${fmt(pr.cpu)} | ${fmt(fr.cpu)} | **${fmt(fr.cpu / pr.cpu, 2)}** | ${fmt(pr.rps)} | ${fmt(fr.rps)} | ${fmt(pr.rps / fr.rps, 2)} | ${fmt(pr.p50, 2)} | ${fmt(pr.p99, 2)} | ${tail(pr.p50, pr.p99)} | ${project.windowPeakRssMb()} | ${faulty(p)} |`,
    );
  }
  // Relations: a page of 100 orders with and without their pets (Order.pet, batched per operation).
  await ordersPage.place(project.origin, projectDb.key);
  const [bare, related] = await sideBySide(
    { server: project, request: ordersPage.bare.project, key: projectDb.key },
    { server: project, request: ordersPage.withPets.project, key: projectDb.key },
    2,
    settings,
  );
  if (faulty(bare) + faulty(related) > 0) failures.push('orders with pets');
  const [bareCpu, relatedCpu] = [least(bare.map((x) => x.cpu)), least(related.map((x) => x.cpu))];
  const ordersRss = project.windowPeakRssMb();
  const mcp = await mcpOverItsOperation(projectDb, failures);

  const rss = project.peakRssMb();
  const floorRss = floor.peakRssMb();
  await project.stop();
  // A REST row answers what the floor's list does, byte for byte.
  const expectedRest = await answerOf({ server: floor, request: list, key: floorDb.key });
  const peerRows =
    only.length > 0 ? [] : await peers(floor, floorDb.key, floorDb.url, { graphql: expected.body, rest: expectedRest.body }, failures);
  await floor.stop();

  console.log(
    '\n| scenario | project CPU µs/req | floor CPU µs/req | CPU ratio | project req/s | floor req/s | req/s ratio | p50 ms | p99 ms | p99/p50 | peak RSS MB | errors |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
  console.log(`\nCPU ratio = floor CPU per request / project CPU per request (least of the rounds); req/s are medians.`);
  console.log(`Peak RSS: project ${rss} MB, floor ${floorRss} MB`);
  printPeers(peerRows);

  console.log(
    `\nOrder.pet on a page of 100 orders: ${fmt(relatedCpu)} µs/req with the pets, ${fmt(bareCpu)} without = **${fmt(relatedCpu / bareCpu, 2)}×** (req/s ${fmt(median(related.map((x) => x.rps)))} vs ${fmt(median(bare.map((x) => x.rps)))}; peak RSS ${ordersRss} MB)`,
  );
  console.log(
    `MCP tools/call list_pets over its operation sent over GraphQL, one server, response cache off: ${fmt(mcp.call)} µs/req against ${fmt(mcp.operation)} = **${fmt(mcp.call / mcp.operation, 2)}×**`,
  );
}

/**
 * What the MCP face costs over the GraphQL one, measured as Order.pet is: both requests against
 * one server in interleaved rounds. Two rows of the table each beside the floor, compared with
 * each other, moved by ±15% between runs of the same build, more than the difference sought.
 * The response cache is off: with it on, the GraphQL request pays the versions read its answer's
 * key needs (even when asked not to be served a kept one) and the tool call does not.
 */
async function mcpOverItsOperation(db: BenchDatabase, failures: string[]): Promise<{ call: number; operation: number }> {
  const server = await startProject(db.url, {
    env: { RESPONSE_CACHE: 'false', RATE_LIMIT_PER_MINUTE: '1000000' },
    name: 'project, response cache off',
  });
  try {
    const [operation, call] = await sideBySide(
      { server, request: listPetsOperation, key: db.key },
      { server, request: listPetsCall, key: db.key },
      2,
      settings,
    );
    if (faulty(operation) + faulty(call) > 0) failures.push('MCP over its operation');
    return { call: least(call.map((x) => x.cpu)), operation: least(operation.map((x) => x.cpu)) };
  } finally {
    await server.stop();
  }
}

/**
 * A large table: a page deep in it should cost what the first page costs (keyset pagination),
 * a count what a page costs (one row of row_counts), and a request of many counts should not
 * hold the event loop: /healthz is timed alone and while 4 connections send 15 aliased counts.
 */
async function scale(dir: string, databases: BenchDatabase[], failures: string[]): Promise<void> {
  // Scale: a page deep in a large table should cost what the first page costs (keyset pagination).
  const scaleDb = await benchDatabase(engine, dir, 'scale', scalePets);
  databases.push(scaleDb);
  const big = await startProject(scaleDb.url);
  const deep = petCursor({ id: scalePets - 1000 });
  const pages: [string, string][] = [
    ['first page', '/v1/pets?limit=20'],
    ['deep page', `/v1/pets?limit=20&cursor=${deep}`],
    ['first page, status=sold', '/v1/pets?limit=20&status=sold'],
    ['deep page, status=sold', `/v1/pets?limit=20&status=sold&cursor=${deep}`],
  ];
  const latency: Record<string, number> = {};
  // Every request here runs (Cache-Control: no-cache): what is timed is the pages' and counts' reads, not a kept answer.
  const fresh = { 'cache-control': 'no-cache' };
  for (const [, path] of pages)
    await load({ server: big, request: { method: 'GET', path, headers: fresh }, key: scaleDb.key }, Math.min(2, duration), 2, connections);
  for (const [label, path] of pages) {
    const runs: Run[] = [];
    for (let r = 0; r < rounds; r++)
      runs.push(await load({ server: big, request: { method: 'GET', path, headers: fresh }, key: scaleDb.key }, duration, 2, connections));
    latency[label] = median(runs.map((x) => x.mean));
    if (runs.some((x) => x.errors + x.unexpected > 0)) failures.push(label);
  }
  const run = (request: Request): Request => ({ ...request, headers: { ...request.headers, ...fresh } });
  const graphQLRuns: [string, Request, number][] = [
    ['GraphQL page', run(gql('{ pets(first: 20) { nodes { id } } }')), connections],
    ['GraphQL page + totalCount', run(gql('{ pets(first: 20) { totalCount nodes { id } } }')), connections],
    [
      '15 aliased totalCounts',
      run(gql(`{ ${Array.from({ length: 15 }, (_, i) => `c${i}: pets(first: 1) { totalCount }`).join(' ')} }`)),
      1,
    ],
  ];
  for (const [label, request, conns] of graphQLRuns) {
    const runs: Run[] = [];
    for (let r = 0; r < rounds; r++) runs.push(await load({ server: big, request, key: scaleDb.key }, duration, 2, conns));
    latency[label] = median(runs.map((x) => x.mean));
    if (runs.some((x) => x.errors + x.unexpected > 0)) failures.push(label);
  }
  const health: Request = { method: 'GET', path: '/healthz', auth: false };
  const healthAlone = await load({ server: big, request: health, key: scaleDb.key }, duration, 2, 1);
  const [healthBusy] = await Promise.all([
    load({ server: big, request: health, key: scaleDb.key }, duration, 2, 1),
    load({ server: big, request: graphQLRuns[2]?.[1] ?? health, key: scaleDb.key }, duration, 2, 4),
  ]);
  // The documents that once stalled an instance, each refused (4xx) while /healthz is timed beside.
  const abusive: [string, Request][] = [
    [
      'a fragment chain doubling 24 times, with a key',
      { ...gql(doublingChain(24)), headers: { accept: 'application/graphql-response+json' } },
    ],
    [
      '161^3 fragment spreads of a count, with a key',
      { ...gql(wideSpreads(2, 161)), headers: { accept: 'application/graphql-response+json' } },
    ],
    ['a 60 kB comment, no key', { ...gql(commentPadded(60_000)), auth: false, headers: { accept: 'application/graphql-response+json' } }],
    ['a 1 MB comment, no key (over the body limit)', { ...gql(commentPadded(1_000_000)), auth: false }],
  ];
  const healthBeside: [string, Run, Run][] = [];
  for (const [label, request] of abusive) {
    const [beside, sent] = await Promise.all([
      load({ server: big, request: health, key: scaleDb.key }, duration, 2, 1),
      load({ server: big, request, key: scaleDb.key }, duration, 4, 4),
    ]);
    healthBeside.push([label, beside, sent]);
    if (sent.errors + sent.unexpected > 0 || beside.errors + beside.unexpected > 0) failures.push(`/healthz beside ${label}`);
  }
  await big.stop();
  console.log(`\nScale (${scalePets} pets), GraphQL, mean latency:`);
  console.log(`  page + totalCount / page:   ${ratioOf(latency, 'GraphQL page + totalCount', 'GraphQL page')}`);
  console.log(`  15 aliased totalCounts:     ${fmt(latency['15 aliased totalCounts'] ?? 0, 2)} ms (1 connection)`);
  console.log(
    `  /healthz while 4 connections send them: mean ${fmt(healthBusy.mean, 2)} ms, p99 ${fmt(healthBusy.p99, 2)} ms (alone: mean ${fmt(healthAlone.mean, 2)} ms, p99 ${fmt(healthAlone.p99, 2)} ms)`,
  );
  for (const [label, beside, sent] of healthBeside) {
    console.log(
      `  /healthz beside ${label} (4 connections, each refused): mean ${fmt(beside.mean, 2)} ms, p99 ${fmt(beside.p99, 2)} ms; ${fmt(sent.rps)} refusals/s at ${fmt(sent.cpu)} µs of CPU each`,
    );
  }
  const ratio = (deepLabel: string, firstLabel: string) => {
    const deepMs = latency[deepLabel] ?? 0;
    const firstMs = latency[firstLabel] ?? 0;
    return `${fmt(deepMs, 2)} / ${fmt(firstMs, 2)} ms = ${firstMs > 0 ? fmt(deepMs / firstMs, 2) : 'n/a'}`;
  };
  console.log(`\nScale (${scalePets} pets, ${connections} connections), mean latency, deep page / first page:`);
  console.log(`  no filter:     ${ratio('deep page', 'first page')}`);
  console.log(`  status=sold:   ${ratio('deep page, status=sold', 'first page, status=sold')}`);
}

function ratioOf(latency: Record<string, number>, label: string, baseLabel: string): string {
  const ms = latency[label] ?? 0;
  const base = latency[baseLabel] ?? 0;
  return `${fmt(ms, 2)} / ${fmt(base, 2)} ms = ${base > 0 ? fmt(ms / base, 2) : 'n/a'}`;
}

await main();
