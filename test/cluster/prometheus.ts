import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../helpers/webhook-receiver.ts';

const SHIPPED = fileURLToPath(new URL('../../deploy/prometheus/', import.meta.url));
const PROMETHEUS = process.env.PROMETHEUS_BIN ?? 'prometheus';

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface Prometheus {
  origin: string;
  /** An instant query through the HTTP API. */
  query(promql: string): Promise<PromSample[]>;
  /** The scrape targets as Prometheus sees them. */
  targets(): Promise<{ scrapeUrl: string; health: string }[]>;
  stop(): Promise<void>;
}

/**
 * A real Prometheus (Debian's package) with the shipped deploy/prometheus/prometheus.yml and its
 * alert rules, the example targets replaced by `targets` (the instances) and `balancers`
 * (HAProxy's metrics) and every interval made 1 s. Run in the
 * foreground on loopback, stopped by its pid.
 */
export async function startPrometheus(port: number, targets: string[], dir: string, balancers: string[] = []): Promise<Prometheus> {
  mkdirSync(dir, { recursive: true });
  const shipped = readFileSync(join(SHIPPED, 'prometheus.yml'), 'utf8');
  // Each job's example targets, in the file's order: the instances', then the balancers'; the
  // exporters' jobs (PostgreSQL's, Redis's) scrape nothing here.
  const lists = [targets, balancers];
  let job = 0;
  const config = shipped
    .replace(/^(\s*)- targets:\n(?:\1 {4}- .*\n)+/gm, (_all, indent: string) => {
      const list = lists[job++] ?? [];
      return `${indent}- targets: [${list.map((t) => `'${t}'`).join(', ')}]\n`;
    })
    .replace(/(scrape|evaluation)_interval: \d+s/g, '$1_interval: 1s');
  if (!config.includes(targets[0] ?? '?') || job < lists.length)
    throw new Error('deploy/prometheus/prometheus.yml: the targets lists were not found');
  writeFileSync(join(dir, 'prometheus.yml'), config);
  copyFileSync(join(SHIPPED, 'petstore-rules.yml'), join(dir, 'petstore-rules.yml'));

  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) =>
      reject(new Error(`Prometheus is needed for the cluster test (apt-get install prometheus): ${error.message}`)),
    );
  });
  await spawned;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`Prometheus exited: ${output}`);
      return fetch(`${origin}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
    },
    60_000,
    'Prometheus to be ready',
  );
  const api = async <T>(path: string): Promise<T> => {
    const body = (await (await fetch(`${origin}${path}`)).json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${body.error ?? body.status}`);
    return body.data;
  };
  return {
    origin,
    query: async (promql) => (await api<{ result: PromSample[] }>(`/api/v1/query?query=${encodeURIComponent(promql)}`)).result,
    targets: async () => (await api<{ activeTargets: { scrapeUrl: string; health: string }[] }>('/api/v1/targets')).activeTargets,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
