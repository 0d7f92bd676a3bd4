import type { RunningServer } from '../helpers/cli.ts';
import { freePort } from '../helpers/cli.ts';

export interface Instance {
  port: number;
  /** Its metrics listener's port (METRICS_PORT), on loopback: Prometheus's target. */
  metricsPort: number;
  origin: string;
  server: RunningServer;
}

/** Identical instances on fixed ports (the balancer's config and Prometheus's targets name them), restartable in place. */
export class Instances {
  private constructor(
    readonly list: Instance[],
    private readonly start: (env: Record<string, string>) => Promise<RunningServer>,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts `count` instances at once, as a deployment's first start does. */
  static async launch(count: number, start: (env: Record<string, string>) => Promise<RunningServer>, env: Record<string, string>) {
    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    const metricsPorts = await Promise.all(Array.from({ length: count }, () => freePort()));
    const servers = await Promise.all(ports.map((port, i) => start({ ...env, PORT: String(port), METRICS_PORT: String(metricsPorts[i]) })));
    return new Instances(
      servers.map((server, i) => ({ port: ports[i] ?? 0, metricsPort: metricsPorts[i] ?? 0, origin: server.origin, server })),
      start,
      env,
    );
  }

  at(index: number): Instance {
    const instance = this.list[index];
    if (!instance) throw new Error(`no instance ${index}`);
    return instance;
  }

  /** Stops instance `index` with `signal`, waits for its exit, and starts it again on its port. Resolves with its exit code. */
  async restart(index: number, signal: NodeJS.Signals, downMs = 0): Promise<number | null> {
    const instance = this.at(index);
    const code = await instance.server.stop(signal);
    if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
    instance.server = await this.start({ ...this.env, PORT: String(instance.port), METRICS_PORT: String(instance.metricsPort) });
    return code;
  }
}
