import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './cli.ts';

export interface PgBouncer {
  /** The pooler's address for database `name`, as a DATABASE_URL. */
  url(database: string): string;
  port: number;
  output(): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** The PostgreSQL it pools, host:port (the machine's own by default). */
  target?: { host: string; port: number };
  /** pool_mode: transaction by default, what a fleet runs. */
  poolMode?: 'transaction' | 'session';
  /** Lines added to the [pgbouncer] section. */
  settings?: string[];
  /** Server connections per user and database (default_pool_size). */
  poolSize?: number;
}

/**
 * Debian's PgBouncer (1.18 on Debian 12) as a process of the test's own, on a free port, with the
 * committed deploy/pgbouncer.ini, its addresses changed and trust auth for the users the tests
 * connect as. PgBouncer will not run as root: as root it drops to `postgres` (its -u). Stopped
 * by its process id.
 */
export async function startPgBouncer({
  target = { host: '127.0.0.1', port: 5432 },
  poolMode = 'transaction',
  settings = [],
  poolSize = 8,
}: PgBouncerOptions = {}): Promise<PgBouncer> {
  const version = spawnSync('pgbouncer', ['--version'], { encoding: 'utf8' });
  if (version.error) throw new Error(`PgBouncer is needed for this test (apt-get install pgbouncer): ${version.error.message}`);
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const users = ['root', 'postgres', process.env.USER].filter((user): user is string => Boolean(user));
  writeFileSync(join(dir, 'users.txt'), users.map((user) => `"${user}" ""`).join('\n'));
  // The committed file, with its addresses, user file, auth and mode as this test needs them.
  const committed = readFileSync(fileURLToPath(new URL('../../deploy/pgbouncer.ini', import.meta.url)), 'utf8');
  const setting = (text: string, name: string, value: string) => {
    const line = new RegExp(`^${name} =.*$`, 'm');
    if (!line.test(text)) throw new Error(`deploy/pgbouncer.ini has no ${name} line`);
    return text.replace(line, `${name} = ${value}`);
  };
  let ini = committed.replace(/^\* = host=.*$/m, `* = host=${target.host} port=${target.port}`);
  ini = setting(ini, 'listen_port', String(port));
  // The machine's PostgreSQL trusts loopback: no passwords here.
  ini = setting(ini, 'auth_type', 'trust');
  ini = setting(ini, 'auth_file', join(dir, 'users.txt'));
  ini = setting(ini, 'pool_mode', poolMode);
  ini = setting(ini, 'default_pool_size', String(poolSize));
  writeFileSync(join(dir, 'pgbouncer.ini'), `${ini}\n${settings.join('\n')}\n`);
  const asRoot = process.getuid?.() === 0;
  const child = spawn('pgbouncer', [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = (database: string) => `postgres://${users[0]}@127.0.0.1:${port}/${database}`;
  for (let tries = 0; ; tries++) {
    const client = new pg.Client({ connectionString: url('postgres'), connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (tries > 100 || child.exitCode !== null) throw new Error(`PgBouncer did not start: ${output}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    port,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
