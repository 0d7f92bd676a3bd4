import { migrations } from '../../src/db/migrations/index.ts';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/cli.ts';
import { ENGINE } from '../helpers/test-database.ts';

const LATEST_MIGRATION = Object.keys(migrations.sqlite).at(-1) ?? '';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The project as a clone of this checkout holds it (tracked files and new ones, nothing ignored). */
function copyProject(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && existsSync(join(ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(ROOT, file), join(to, file));
  }
}

/** Runs a command in the install as an operator would type it; its exit code, stdout, and both outputs. */
function sh(dir: string, command: string, env: Record<string, string> = {}): { status: number | null; stdout: string; out: string } {
  const res = spawnSync('bash', ['-c', command], {
    cwd: dir,
    env: { ...process.env, ...env, npm_config_audit: 'false', npm_config_fund: 'false' },
    encoding: 'utf8',
    timeout: 480_000,
  });
  return { status: res.status, stdout: res.stdout, out: `${res.stdout}${res.stderr}` };
}

// docs/operations.md, "Install for production", step by step: build once, keep only what runs,
// start the compiled server with npm start, and use the CLI through npx, with neither TypeScript
// nor tsx installed.
describe('a production install', { timeout: 900_000 }, () => {
  it('npm ci && npm run build && npm prune --omit=dev, then npm start and npx petstore, compiled, SIGTERM exits 0', async ({
    tmp,
    databaseUrl,
  }) => {
    const dir = join(tmp, 'petstore');
    copyProject(dir);
    // A clone has git, this copy does not: the revision comes as a build from an archive gives it.
    const install = sh(dir, 'npm ci && npm run build && npm prune --omit=dev', { PETSTORE_REVISION: 'abc123def456' });
    expect(install.status, install.out).toBe(0);
    for (const dev of ['typescript', 'tsx', 'vitest', '@graphql-codegen/cli'])
      expect(existsSync(join(dir, 'node_modules', dev)), dev).toBe(false);
    expect(existsSync(join(dir, 'dist', 'cli', 'main.js'))).toBe(true);

    const env = { DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'info' };
    const version = sh(dir, 'npx petstore --version', env);
    // Recorded at build time (dist/build-info.json), so it is known where it runs, with no git and no setting.
    expect(version.stdout.trim()).toMatch(/^petstore-gateway \d+\.\d+\.\d+ \(revision abc123def456\)$/);
    const fresh = sh(dir, 'npx petstore migrate --check', env);
    expect(fresh.status, fresh.out).toBe(3);
    expect(fresh.out).toMatch(/^0001-initial +pending$/m);
    expect(sh(dir, 'npx petstore migrate', env).status).toBe(0);
    const current = sh(dir, 'npx petstore migrate --check', env);
    expect(current.status, current.out).toBe(0);
    const key = sh(dir, 'npx petstore keys create --account ops', env).stdout.trim().split('\n').at(-1) ?? '';
    expect(key).toMatch(/^psk_/);

    const port = await freePort();
    const server = spawn('npm', ['start'], { cwd: dir, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' } });
    let stdout = '';
    let stderr = '';
    server.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    server.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => stderr, { timeout: 60_000, interval: 100 }).toMatch(/Petstore Gateway is ready at/);
      const origin = `http://127.0.0.1:${port}`;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const created = await fetch(`${origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Prod', categoryId: 1 }) });
      expect(created.status).toBe(201);
      expect((await fetch(`${origin}/v1/pets`, { headers })).status).toBe(200);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // npm's own lines (the script it runs) aside, stdout is the server's JSON lines.
    const lines = stdout.split('\n').filter((line) => line.startsWith('{'));
    expect(lines.map((line) => JSON.parse(line) as { msg: string })).toContainEqual(
      expect.objectContaining({ msg: 'ready', engine: ENGINE, migration: LATEST_MIGRATION, revision: 'abc123def456' }),
    );
    expect(stdout).toMatch(/"msg":"shutting down"/);
    // A graceful stop says it is done, last.
    expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({ msg: 'stopped' });

    // The systemd unit's command line and environment file, with this install in place of
    // /opt/petstore: it serves, and SIGTERM stops it cleanly (exit 0; the server's own deadline exits 1).
    const unit = readFileSync(join(dir, 'deploy/systemd/petstore.service'), 'utf8');
    const setting = (name: string) => unit.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1] ?? '';
    const envFile = Object.fromEntries(
      readFileSync(join(dir, 'deploy/systemd/petstore.env'), 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
    const [unitEnvName, unitEnvValue] = setting('Environment').split('=') as [string, string];
    const [command = '', ...args] = setting('ExecStart').replaceAll('/opt/petstore', dir).split(' ');
    const unitPort = await freePort();
    expect([command, args[0]]).toEqual(['/usr/bin/env', 'node']);
    const service = spawn(command, args, {
      cwd: setting('WorkingDirectory').replace('/opt/petstore', dir),
      env: {
        ...envFile,
        [unitEnvName]: unitEnvValue,
        DATABASE_URL: databaseUrl,
        PORT: String(unitPort),
        HOST: '127.0.0.1',
        // systemd's default PATH, with the folder of the Node that ran npm ci first: the override
        // the unit's comment gives for a Node outside /usr/local/bin and /usr/bin.
        PATH: `${dirname(process.execPath)}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin`,
      },
    });
    let serviceErr = '';
    service.stderr.on('data', (d: Buffer) => (serviceErr += d.toString()));
    const serviceExited = new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)));
    await expect
      .poll(() => serviceErr, { timeout: 60_000, interval: 100 })
      .toMatch(new RegExp(`is ready at .*version \\S+ \\(revision abc123def456\\), .*schema at ${LATEST_MIGRATION}`));
    expect((await fetch(`http://127.0.0.1:${unitPort}/readyz`)).status).toBe(200);
    service.kill('SIGTERM');
    expect(await serviceExited).toBe(0);
  });
});
