import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './cli.ts';

export interface PrivateRedis {
  url: string;
  /** A client of its own, for reading what the server holds (INFO, keys). */
  client: Redis;
  /** Stops the process where it stands (SIGSTOP): connections stay open and nothing answers, as a hung Redis or a partition. */
  freeze(): void;
  /** Lets it run again (SIGCONT): it answers what waited. */
  thaw(): void;
  stop(): Promise<void>;
}

/**
 * A Redis server of the test's own (Debian's redis-server, as on every machine that has
 * TEST_REDIS_URL), for settings the shared one must not take: `args` such as
 * `--maxmemory 8mb --maxmemory-policy volatile-lru`. Nothing on disk.
 */
export async function startPrivateRedis(args: string[]): Promise<PrivateRedis> {
  const port = await freePort();
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
  // Refused until the server listens: the loop below retries.
  client.on('error', () => undefined);
  for (let tries = 0; ; tries++) {
    try {
      await client.connect();
      await client.ping();
      break;
    } catch (error) {
      if (tries > 100 || server.exitCode !== null) throw new Error(`redis-server did not start on ${url}`, { cause: error });
      client.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    client,
    freeze: () => void server.kill('SIGSTOP'),
    thaw: () => void server.kill('SIGCONT'),
    stop: async () => {
      client.disconnect();
      server.kill('SIGCONT');
      server.kill('SIGKILL');
      if (server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}
