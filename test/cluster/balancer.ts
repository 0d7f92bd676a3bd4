import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/cli.ts';
import { waitFor } from '../helpers/webhook-receiver.ts';

const CONFIG = fileURLToPath(new URL('../../deploy/haproxy.cfg', import.meta.url));
const HAPROXY = process.env.HAPROXY_BIN ?? 'haproxy';

export interface Balancer {
  origin: string;
  /** Where HAProxy's own metrics are (host:port; '' for a balancer without them). */
  metrics: string;
  output(): string;
  stop(): Promise<void>;
}

/** Whether the balancer is up, from its answer to GET /healthz: an instance's 200 by default; any answer when none is meant to be ready. */
export type ReadyWhen = (res: Response) => boolean;

/** HAProxy with the committed config (deploy/haproxy.cfg) in front of `backends` (host:port each). */
export async function startBalancer(port: number, backends: string[], readyWhen: ReadyWhen = (r) => r.ok): Promise<Balancer> {
  const metrics = `127.0.0.1:${await freePort()}`;
  const env = {
    ...process.env,
    PETSTORE_LISTEN: `127.0.0.1:${port}`,
    PETSTORE_METRICS_LISTEN: metrics,
    ...Object.fromEntries(backends.map((address, i) => [`PETSTORE_APP${i + 1}`, address])),
  };
  const check = spawnSync(HAPROXY, ['-c', '-q', '-f', CONFIG], { env, encoding: 'utf8' });
  if (check.error) throw new Error(`HAProxy is needed for the cluster test (apt-get install haproxy): ${check.error.message}`);
  if (check.status !== 0) throw new Error(`deploy/haproxy.cfg does not load: ${check.stdout}${check.stderr}`);

  // -db: in the foreground, so the test owns the process and stops it by its pid.
  const balancer = await runBalancer(
    'HAProxy',
    port,
    spawn(HAPROXY, ['-db', '-f', CONFIG], { env, stdio: ['ignore', 'pipe', 'pipe'] }),
    'SIGTERM',
    () => undefined,
    readyWhen,
  );
  return { ...balancer, metrics };
}

/** A balancer process the test started in the foreground, once it answers /healthz on `port`; `stop` sends `signal` and waits for the exit. */
export async function runBalancer(
  name: string,
  port: number,
  child: ChildProcessByStdio<null, Readable, Readable>,
  signal: NodeJS.Signals,
  cleanUp: () => void = () => undefined,
  readyWhen: ReadyWhen = (r) => r.ok,
): Promise<Balancer> {
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited: ${output}`);
      return fetch(`${origin}/healthz`).then(readyWhen, () => false);
    },
    30_000,
    `${name} to answer`,
  );
  return {
    origin,
    metrics: '',
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      cleanUp();
    },
  };
}
