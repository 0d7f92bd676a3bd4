import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './cli.ts';

/** Debian's PostgreSQL 15 programs (initdb, pg_ctl, pg_basebackup are not on PATH). */
function bin(): string {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root) ? readdirSync(root).sort().at(-1) : undefined;
  if (!version) throw new Error('PostgreSQL server programs are needed for this test (Debian: postgresql-15)');
  return join(root, version, 'bin');
}

/** Runs a PostgreSQL program as the user postgres (they refuse root), the way an operator would. */
function asPostgres(program: string, args: string[]): string {
  const root = process.getuid?.() === 0;
  const [command, all] = root ? ['runuser', ['-u', 'postgres', '--', join(bin(), program), ...args]] : [join(bin(), program), args];
  return execFileSync(command as string, all as string[], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

export interface PgCluster {
  port: number;
  dir: string;
  /** A URL of database `name` on it, as user postgres. */
  url(name?: string): string;
  /** Runs SQL on it (database postgres unless named). */
  query<Row extends pg.QueryResultRow>(sql: string, name?: string): Promise<Row[]>;
  /** pg_ctl stop: `immediate` is a crash (no checkpoint, clients cut), `fast` a clean stop. */
  stop(mode?: 'immediate' | 'fast'): void;
  start(): void;
  /** pg_ctl promote: a standby becomes a primary, taking writes. */
  promote(): void;
  /** Stops it if it runs and removes its files. */
  remove(): void;
}

function cluster(dir: string, port: number): PgCluster {
  const url = (name = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const ctl = (...args: string[]) => asPostgres('pg_ctl', ['-D', dir, '-l', join(dir, 'server.log'), ...args]);
  const running = () => existsSync(join(dir, 'postmaster.pid'));
  return {
    port,
    dir,
    url,
    async query(sql, name) {
      const client = new pg.Client({ connectionString: url(name) });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    },
    stop: (mode = 'fast') => void ctl('stop', '-w', '-m', mode),
    start: () => void ctl('start', '-w', '-t', '60'),
    promote: () => void ctl('promote', '-w', '-t', '60'),
    remove() {
      if (running()) {
        try {
          ctl('stop', '-w', '-m', 'immediate');
        } catch {
          // Already gone.
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A folder the user postgres owns. */
function postgresDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  return dir;
}

/** Settings every test cluster takes: its port and socket, replication on, small and quick. */
function settings(dir: string, port: number, more: string[]): string {
  return [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    'wal_level = replica',
    'max_wal_senders = 5',
    'shared_buffers = 16MB',
    'max_connections = 60',
    ...more,
    '',
  ].join('\n');
}

/**
 * A primary of the test's own on a free port (initdb, trust auth on loopback, replication
 * allowed), started. `synchronousStandby` names the standby (its cluster_name) whose flush a
 * commit waits for: synchronous_commit = on with synchronous_standby_names.
 */
export async function startPrimary({ synchronousStandby }: { synchronousStandby?: string } = {}): Promise<PgCluster> {
  const dir = postgresDir('pg-primary-');
  const port = await freePort();
  asPostgres('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  appendFileSync(
    join(dir, 'postgresql.conf'),
    settings(dir, port, synchronousStandby ? ['synchronous_commit = on', `synchronous_standby_names = '${synchronousStandby}'`] : []),
  );
  const made = cluster(dir, port);
  made.start();
  return made;
}

/**
 * A standby of `primary` made as an operator makes one (pg_basebackup -R), streaming from
 * `from` (the primary's port, or a proxy's in front of it), named `name` (its cluster_name,
 * which synchronous_standby_names matches), started.
 */
export async function startStandby(primary: PgCluster, { name, from = primary.port }: { name: string; from?: number }): Promise<PgCluster> {
  const dir = postgresDir('pg-standby-');
  const port = await freePort();
  asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(from), '-U', 'postgres', '-D', dir, '-R', '-X', 'stream', '--no-sync']);
  const conf = readFileSync(join(dir, 'postgresql.conf'), 'utf8');
  appendFileSync(
    join(dir, 'postgresql.conf'),
    `${conf.endsWith('\n') ? '' : '\n'}${settings(dir, port, [`cluster_name = '${name}'`, "synchronous_standby_names = ''"])}`,
  );
  const made = cluster(dir, port);
  made.start();
  return made;
}
