import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBalancer } from './balancer.ts';
import type { Balancer, ReadyWhen } from './balancer.ts';

const SNIPPET = fileURLToPath(new URL('../../deploy/nginx.conf', import.meta.url));
const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

/**
 * The committed snippet (deploy/nginx.conf) with only its addresses changed, as an operator
 * would edit it: the listen port, and one upstream server line per backend.
 */
export function nginxSnippet(port: number, backends: string[]): string {
  const original = readFileSync(SNIPPET, 'utf8');
  const servers = [...original.matchAll(/^(\s*)server 127\.0\.0\.1:\d+ (.*);$/gm)];
  if (servers.length === 0 || !/^\s*listen 8080;$/m.test(original)) throw new Error('deploy/nginx.conf: listen or server lines not found');
  const [first] = servers;
  const upstream = backends.map((address) => `${first?.[1] ?? '    '}server ${address} ${first?.[2] ?? ''};`).join('\n');
  return original.replace(/^(\s*)listen 8080;$/m, `$1listen 127.0.0.1:${port};`).replace(servers.map((s) => s[0]).join('\n'), upstream);
}

/** nginx (Debian's package) with the committed snippet inside a minimal nginx.conf of the test's own, in the foreground. */
export async function startNginx(port: number, backends: string[], readyWhen: ReadyWhen = (r) => r.ok): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-nginx-'));
  // Workers run as an unprivileged user when the master is root: they need the temp folders.
  chmodSync(dir, 0o777);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp), { mode: 0o777 });
  writeFileSync(join(dir, 'petstore.conf'), nginxSnippet(port, backends));
  const config = join(dir, 'nginx.conf');
  writeFileSync(
    config,
    [
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      'error_log stderr warn;',
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (temp) => `  ${temp === 'body' ? 'client_body' : temp}_temp_path ${dir}/${temp};`,
      ),
      `  include ${dir}/petstore.conf;`,
      '}',
    ].join('\n'),
  );
  const check = spawnSync(NGINX, ['-t', '-q', '-p', dir, '-c', config, '-e', 'stderr'], { encoding: 'utf8' });
  if (check.error) throw new Error(`nginx is needed for the cluster test (apt-get install nginx-light): ${check.error.message}`);
  if (check.status !== 0) throw new Error(`deploy/nginx.conf does not load: ${check.stdout}${check.stderr}`);

  const child = spawn(NGINX, ['-p', dir, '-c', config, '-e', 'stderr', '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // SIGQUIT: a graceful stop of the master and its workers.
  return runBalancer('nginx', port, child, 'SIGQUIT', () => rmSync(dir, { recursive: true, force: true }), readyWhen);
}
