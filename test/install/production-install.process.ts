import { migrations } from '../../src/db/migrations/index.ts';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
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
// nor tsx installed. On SQLite only: the steps do not depend on the engine, and the compiled
// build on PostgreSQL and Redis is run by the image tier (test/deploy/container-image.image.ts),
// whose image is this same install; a second install and compile here cost CI two minutes.
describe.runIf(ENGINE === 'sqlite')('a production install', { timeout: 1_200_000 }, () => {
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

    // The next release over this install.
    installNewRelease(tmp, dir, env);
  });
});

/** The code blocks of a docs section, from its heading to the next heading of its level or above. */
function sectionBlocks(file: string, heading: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no section ${heading}`);
  const level = heading.split(' ')[0] ?? '';
  const next = text.slice(start + heading.length + 2).search(new RegExp(`\\n#{1,${level.length}} `));
  const section = next < 0 ? text.slice(start) : text.slice(start, start + heading.length + 2 + next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/** A release of this project in a git repository: the tracked files, plus `change` applied, committed and tagged. */
function tagRelease(repo: string, tag: string, change: (dir: string) => void): void {
  if (!existsSync(join(repo, '.git'))) {
    copyProject(repo);
    execFileSync('git', ['init', '--quiet', '--initial-branch=main'], { cwd: repo });
  }
  change(repo);
  execFileSync('git', ['add', '--all'], { cwd: repo });
  execFileSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.com', 'commit', '--quiet', '--allow-empty', '-m', tag], {
    cwd: repo,
  });
  execFileSync('git', ['tag', tag], { cwd: repo });
}

/** A migration more, for both engines: what the next release of the schema would bring. */
function addMigration(dir: string): string {
  const index = join(dir, 'src/db/migrations/index.ts');
  let text = readFileSync(index, 'utf8');
  const last = [...text.matchAll(/^ {4}'(\d{4})-[^']+': sqlite\w+,$/gm)].at(-1)?.[1] ?? '0000';
  const name = `${String(Number(last) + 1).padStart(4, '0')}-upgrade-drill`;
  for (const engine of ['sqlite', 'postgres'] as const) {
    writeFileSync(
      join(dir, `src/db/migrations/${engine}/${name}.ts`),
      "import type { Kysely } from 'kysely';\n\nexport async function up(db: Kysely<unknown>): Promise<void> {\n  await db.schema.createTable('upgrade_drill').addColumn('id', 'integer').execute();\n}\n",
    );
    text = `import * as ${engine}UpgradeDrill from './${engine}/${name}.ts';\n${text}`;
    const entries = [...text.matchAll(new RegExp(`^ {4}'\\d{4}-[^']+': ${engine}\\w+,$`, 'gm'))];
    const end = (entries.at(-1)?.index ?? 0) + (entries.at(-1)?.[0].length ?? 0);
    text = `${text.slice(0, end)}\n    '${name}': ${engine}UpgradeDrill,${text.slice(end)}`;
  }
  writeFileSync(index, text);
  return name;
}

/**
 * docs/operations.md, "Installing a new release", as written, in the shell the install leaves
 * (NODE_ENV=production exported), over the install at `live`: a release whose install fails
 * changes nothing; the next release is built beside the live one with its dev tools, its
 * migration applied, and swapped in; a build left stale refuses to migrate.
 */
function installNewRelease(tmp: string, live: string, env: Record<string, string>): void {
  const repo = join(tmp, 'releases');
  let migration = '';
  tagRelease(repo, 'v-next', (dir) => void (migration = addMigration(dir)));
  // A release that cannot install (its lockfile does not match its package.json): the block stops there.
  tagRelease(repo, 'v-broken', (dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    pkg.dependencies['left-pad'] = '^1.3.0';
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  });
  const [build = '', swap = ''] = sectionBlocks('docs/operations.md', '### Installing a new release');
  const next = join(tmp, 'next');
  const upgrade = (release: string) =>
    sh(tmp, `set -e\n${build.replace(/^export RELEASE=.*$/m, `export RELEASE=${release} REPO=${repo} LIVE=${live} NEW=${next}`)}`, env);

  const liveBuild = readFileSync(join(live, 'dist/build-info.json'), 'utf8');
  const broken = upgrade('v-broken');
  expect(broken.status, broken.out).not.toBe(0);
  expect(broken.out).toMatch(/npm ci/);
  expect(readFileSync(join(live, 'dist/build-info.json'), 'utf8')).toBe(liveBuild);
  const still = sh(live, 'npx petstore migrate --check', env);
  expect(still.status, still.out).toBe(0);
  expect(still.out).not.toContain(migration);

  const upgraded = upgrade('v-next');
  expect(upgraded.status, upgraded.out).toBe(0);
  // From a folder as from a URL: a shallow clone, and nothing for git to warn about.
  expect(upgraded.out).not.toMatch(/warning: --depth is ignored|detached HEAD/);
  expect(execFileSync('git', ['-C', next, 'rev-list', '--count', 'HEAD'], { encoding: 'utf8' }).trim()).toBe('1');
  expect(upgraded.out).toMatch(new RegExp(`^${migration} +pending$`, 'm'));
  expect(upgraded.out).toMatch(new RegExp(`Applied 1 migration\\(s\\): ${migration}\\.`));
  const swapped = sh(tmp, swap, { ...env, LIVE: live, NEW: next });
  expect(swapped.status, swapped.out).toBe(0);
  expect(existsSync(join(`${live}-previous`, 'dist'))).toBe(true);
  const current = sh(live, 'npx petstore migrate --check', env);
  expect(current.status, current.out).toBe(0);
  expect(current.out).toMatch(new RegExp(`^${migration} +applied `, 'm'));
  for (const dev of ['typescript', 'tsx']) expect(existsSync(join(live, 'node_modules', dev)), dev).toBe(false);

  // Sources newer than the build, no dev tools (a pull without a build): migrate refuses the older build.
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(live, 'src/server.ts'), later, later);
  const stale = sh(live, 'npx petstore migrate --check', env);
  expect(stale.status, stale.out).toBe(1);
  expect(stale.out).toMatch(/dist\/ is older than src\/ .* migrate refuses to run the older build/);
  // Anything else runs the older build, and names the command that builds in a pruned install (no tsc there: not `npm run build` alone).
  const older = sh(live, 'npx petstore --version', env);
  expect(older.status, older.out).toBe(0);
  expect(older.out).toContain(
    'petstore: dist/ is older than src/ and the dev tools are not installed: running the older build. Build it with `npm ci --include=dev && npm run build && npm prune --omit=dev`.',
  );
}
