// npm run bench -- --baseline-rev REV | --baseline-env K=V,… [--env K=V,…]
// This checkout's build against a baseline, scenario by scenario, interleaved rounds: another
// revision's build (is anything slower than before?), or this build with other settings (what
// does a feature cost when it is on?). Both sides run on databases seeded alike.
import { join } from 'node:path';
import type { BenchDatabase, BenchEngine } from './bench-database.ts';
import { benchDatabase } from './bench-database.ts';
import { faulty, fmt, least, median, sideBySide } from './bench-load.ts';
import type { Status } from './bench-load.ts';
import type { LoadSettings, Request, Side } from './bench-load.ts';
import { buildRevision, startProject } from './bench-servers.ts';
import { ordersPage } from './orders-page.ts';
import { startOtlpSink } from './otlp-sink.ts';

/** The value that stands for the bench's own OTLP sink in --env and --baseline-env. */
export const OTLP_SINK = '{otlp-sink}';

export interface Baseline {
  /** A git revision to build and run as the baseline; else this checkout's build. */
  rev?: string;
  /** Settings of the baseline's server. */
  env: Record<string, string>;
}

/** The scenarios of the floor comparison, plus a page of 100 orders with and without their pets. */
export function comparedScenarios(projectScenarios: { name: string; project: Request; expectStatus: Status }[], all: boolean) {
  return all ? [...projectScenarios, ordersPage.bare, ordersPage.withPets] : projectScenarios;
}

const describeSide = (rev: string | undefined, env: Record<string, string>) =>
  [rev ? `build of ${rev}` : 'this build', ...Object.entries(env).map(([k, v]) => `${k}=${v}`)].join(', ');

export async function compareBuilds(options: {
  engine: BenchEngine;
  dir: string;
  petCount: number;
  settings: LoadSettings;
  baseline: Baseline;
  projectEnv: Record<string, string>;
  scenarios: { name: string; project: Request; expectStatus: Status }[];
  /** Add the pages of orders, with and without their pets. */
  orders: boolean;
  databases: BenchDatabase[];
  failures: string[];
}): Promise<void> {
  const { engine, dir, petCount, settings, baseline, projectEnv, databases, failures } = options;
  const baselineDir = baseline.rev ? buildRevision(baseline.rev, join(dir, 'baseline')) : undefined;
  // A baseline's database is migrated by the baseline: an older release may know fewer migrations.
  const baselineDb = await benchDatabase(engine, dir, 'baseline', petCount, baselineDir && join(baselineDir, 'dist/cli/main.js'));
  const projectDb = await benchDatabase(engine, dir, 'project', petCount);
  databases.push(baselineDb, projectDb);
  // A setting whose value is {otlp-sink} points at a loopback OTLP endpoint the bench runs.
  const sinkWanted = [...Object.values(baseline.env), ...Object.values(projectEnv)].includes(OTLP_SINK);
  const sink = sinkWanted ? await startOtlpSink() : null;
  const withSink = (env: Record<string, string>) =>
    Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === OTLP_SINK ? (sink?.url ?? '') : v]));
  // An archive has no .git to tell the server its revision: the bench does (its ready line names it).
  const revision: Record<string, string> = baseline.rev ? { PETSTORE_REVISION: baseline.rev } : {};
  const base = await startProject(baselineDb.url, { dir: baselineDir, env: { ...revision, ...withSink(baseline.env) }, name: 'baseline' });
  const project = await startProject(projectDb.url, { env: withSink(projectEnv) });
  await ordersPage.place(base.origin, baselineDb.key);
  await ordersPage.place(project.origin, projectDb.key);
  console.log(`\nBaseline: ${describeSide(baseline.rev, baseline.env)}. Project: ${describeSide(undefined, projectEnv)}.`);

  const rows: string[] = [];
  for (const scenario of comparedScenarios(options.scenarios, options.orders)) {
    const sides: [Side, Side] = [
      { server: base, request: scenario.project, key: baselineDb.key },
      { server: project, request: scenario.project, key: projectDb.key },
    ];
    const [b, p] = await sideBySide(...sides, scenario.expectStatus, settings);
    if (faulty(b) + faulty(p) > 0) failures.push(scenario.name);
    const [bCpu, pCpu] = [least(b.map((x) => x.cpu)), least(p.map((x) => x.cpu))];
    const change = (pCpu / bCpu - 1) * 100;
    rows.push(
      `| ${scenario.name} | ${fmt(bCpu)} | ${fmt(pCpu)} | **${fmt(pCpu / bCpu, 3)}** (${change >= 0 ? '+' : ''}${fmt(change, 1)}%) | ${fmt(median(b.map((x) => x.rps)))} | ${fmt(median(p.map((x) => x.rps)))} | ${faulty(b) + faulty(p)} |`,
    );
  }
  const rss = [base.peakRssMb(), project.peakRssMb()];
  await base.stop();
  await project.stop();
  if (sink) console.log(`\nOTLP sink: ${sink.exports()} exports received.`);
  await sink?.close();
  console.log('\n| scenario | baseline CPU µs/req | project CPU µs/req | project / baseline | baseline req/s | project req/s | errors |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
  console.log(
    `\nCPU per request is the least of ${settings.rounds} interleaved rounds; above 1 the project costs more. Peak RSS: baseline ${rss[0]} MB, project ${rss[1]} MB.`,
  );
}
