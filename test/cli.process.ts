import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { migrations } from '../src/db/migrations/index.ts';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from './helpers/fixtures.ts';
import { freePort, petstore, petstoreAsync } from './helpers/cli.ts';
import { ENGINE, execute } from './helpers/test-database.ts';

const LATEST_MIGRATION = Object.keys(migrations.sqlite).at(-1) ?? '';

const KEY = /psk_[A-Za-z0-9]{40}/;
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

async function waitForOk(url: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return (await fetch(url)).status;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Holds a TCP port the way another program would. */
async function occupyPort(): Promise<{ port: number; release(): Promise<void> }> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as AddressInfo;
  return { port, release: () => new Promise((resolve) => holder.close(() => resolve())) };
}

// Every test here starts processes; the timeout is sized for a loaded machine, not a fast one.
describe('petstore serve when it cannot start', { timeout: 180_000 }, () => {
  it('exits 1 at once when the port is taken, naming the port and how to pick another; the first key waits for a start that listens', async ({
    databaseUrl,
    serve,
  }) => {
    const env = { DATABASE_URL: databaseUrl, HOST: '127.0.0.1' };
    const busy = await occupyPort();
    try {
      // Before the fix this hung: the spawn's timeout would end it with no exit status.
      const failed = await petstoreAsync(['serve'], { ...env, PORT: String(busy.port) });
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain(`port ${busy.port} is already in use on 127.0.0.1`);
      expect(failed.stderr).toMatch(/PORT=/);
      expect(failed.stderr).not.toMatch(/\n\s+at /);
      expect(failed.stdout).not.toMatch(KEY);
    } finally {
      await busy.release();
    }
    expect(petstore(['keys', 'list'], env).stdout).toMatch(/No API keys yet/);
    const server = await serve(env);
    expect(server.output()).toMatch(/First start: created account "default"/);
    expect(server.output()).toMatch(KEY);
    expect(await server.stop()).toBe(0);
  });

  it('exits 1 when METRICS_PORT is taken, naming that setting, and makes no key', async ({ databaseUrl }) => {
    const env = { DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: '0' };
    const busy = await occupyPort();
    try {
      const failed = await petstoreAsync(['serve'], { ...env, METRICS_PORT: String(busy.port) });
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain(`cannot start the metrics listener: port ${busy.port} is already in use on 127.0.0.1`);
      expect(failed.stderr).toMatch(/METRICS_PORT=<port>/);
      expect(failed.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await busy.release();
    }
    expect(petstore(['keys', 'list'], env).stdout).toMatch(/No API keys yet/);
  });

  it('exits 1 naming the PostgreSQL server and why when it cannot be reached, never the password', async () => {
    const closed = await freePort();
    for (const command of [['migrate'], ['serve']]) {
      const res = await petstoreAsync(command, { DATABASE_URL: `postgres://zelda:s3cret@127.0.0.1:${closed}/petstore`, PORT: '0' });
      expect(res.status).toBe(1);
      expect(res.stderr).toContain(
        `cannot reach PostgreSQL at 127.0.0.1:${closed}/petstore (DATABASE_URL): connection refused (ECONNREFUSED).`,
      );
      expect(res.stderr + res.stdout).not.toMatch(/s3cret|zelda/);
    }
  });
});

describe('petstore when the database fails it at start', { timeout: 180_000 }, () => {
  it('exits 1 naming the database’s own reason, not only "database failure"', async ({ databaseUrl }) => {
    // A table of another program where the first migration makes its own.
    await execute(databaseUrl, 'create table pets (whatever integer)');
    for (const command of [['migrate'], ['serve']]) {
      const res = await petstoreAsync(command, { DATABASE_URL: databaseUrl, PORT: '0' });
      expect(res.status).toBe(1);
      expect(res.stderr).toMatch(/^petstore: Database migration failed: database failure: .*(already exists|relation "pets")/m);
    }
  });
});

// SQLite only: a file path that cannot hold a database.
describe.runIf(ENGINE === 'sqlite')('petstore with a DATABASE_URL path that cannot be a SQLite file', { timeout: 180_000 }, () => {
  it.for([
    ['a folder', (dir: string) => dir, /it is a folder; give a file path inside it/],
    ['a path under a file', (dir: string) => join(dir, 'plain-file', 'x.db'), /a part of the path is a file, not a folder/],
    ['a file that is not SQLite', (dir: string) => join(dir, 'plain-file'), /the file exists but is not a SQLite database/],
  ] as const)('names the path and the reason when DATABASE_URL is %s, exit 1', ([_label, path, reason], { tmp: dir }) => {
    writeFileSync(join(dir, 'plain-file'), 'not a database');
    const url = path(dir);
    for (const command of [['migrate'], ['serve']]) {
      const res = petstore(command, { DATABASE_URL: url, PORT: '0' });
      expect(res.status).toBe(1);
      expect(res.stderr).toContain(`cannot open the SQLite database '${url}' (DATABASE_URL)`);
      expect(res.stderr).toMatch(reason);
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('petstore CLI', { timeout: 180_000 }, () => {
  it('prints usage for help, and exits 2 on an unknown command', () => {
    const help = petstore(['help'], {});
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/keys create --account NAME/);
    const unknown = petstore(['frobnicate'], {});
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'frobnicate'/);
  });

  it('has help for every command and subcommand, in three spellings, and --version', async () => {
    const cases = [
      [['keys', '--help'], 'Usage: petstore keys <create|list|revoke>'],
      [['help', 'keys'], 'Usage: petstore keys <create|list|revoke>'],
      [['keys', 'create', '--help'], 'Usage: petstore keys create --account NAME [--scopes LIST]'],
      [['keys', 'list', '-h'], 'Usage: petstore keys list'],
      [['help', 'keys', 'revoke'], 'Usage: petstore keys revoke ID'],
      [['serve', '--help'], 'Usage: petstore serve'],
      [['migrate', '--help'], 'Usage: petstore migrate [--check]'],
      [['help', 'backup'], 'Usage: petstore backup PATH'],
      [['accounts', '--help'], 'Usage: petstore accounts <list|disable|enable>'],
      [['help', 'accounts', 'disable'], 'Usage: petstore accounts disable NAME'],
      [['accounts', 'list', '-h'], 'Usage: petstore accounts list'],
      [[], 'Usage: petstore <command> [options]'],
    ] as const;
    // Independent processes: run at once, so a loaded machine does not add up their start times.
    const results = await Promise.all(cases.map(([args]) => petstoreAsync([...args], {})));
    results.forEach((res, i) => {
      const [args, first] = cases[i] ?? [[], ''];
      expect(res.status, args.join(' ')).toBe(0);
      expect(res.stdout.split('\n')[0], args.join(' ')).toBe(first);
    });
    // In a checkout, the revision is git's: this commit, marked dirty while tracked files are changed.
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' }).trim();
    const revision = `${git('rev-parse', '--short=12', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? '-dirty' : ''}`;
    const version = petstore(['--version'], {});
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^petstore-gateway \d+\.\d+\.\d+ \(revision [0-9a-f]{12}(-dirty)?\)$/);
    expect(version.stdout.trim()).toMatch(new RegExp(`\\(revision ${revision}\\)$`));
    expect(petstore(['--version'], { PETSTORE_REVISION: 'release-build-7' }).stdout.trim()).toMatch(/ \(revision release-build-7\)$/);
    const unknownTopic = petstore(['help', 'frobnicate'], {});
    expect(unknownTopic.status).toBe(2);
    expect(unknownTopic.stderr).toMatch(/no help for 'frobnicate'/);
  });

  it('answers a command line that is wrong with the help of the command it names, exit 2', ({ databaseUrl }) => {
    for (const [args, said, help] of [
      [['keys', 'create'], 'keys create needs --account NAME', 'Usage: petstore keys create --account NAME [--scopes LIST]'],
      [['keys', 'create', '--acount', 'x'], "Unknown option '--acount'", 'Usage: petstore keys create --account NAME [--scopes LIST]'],
      [['keys', 'revoke'], 'keys revoke needs exactly one key ID', 'Usage: petstore keys revoke ID'],
      [['keys', 'frobnicate'], "unknown keys command 'frobnicate'", 'Usage: petstore keys <create|list|revoke>'],
      [['frobnicate'], "unknown command 'frobnicate'", 'Usage: petstore <command> [options]'],
    ] as const) {
      const res = petstore([...args], { DATABASE_URL: databaseUrl });
      expect(res.status, args.join(' ')).toBe(2);
      const [first, , usage] = res.stderr.split('\n');
      expect(first).toContain(`petstore: ${said}`);
      expect(usage, args.join(' ')).toBe(help);
    }
  });

  it('runs as `npx petstore` after npm ci', () => {
    const res = spawnSync('npx', ['--no', 'petstore', 'help'], { encoding: 'utf8', timeout: 60_000 });
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^Usage: petstore <command>/m);
  });

  it('refuses a DATABASE_URL of a scheme it does not speak, rather than making a SQLite file of that name; no setting prints its password', async ({
    tmp,
  }) => {
    for (const [url, scheme] of [
      ['postgress://nu:hunter2@127.0.0.1:5432/x', 'postgress:'],
      ['mysql://root:hunter2@127.0.0.1/x', 'mysql:'],
      ['redis://:hunter2@127.0.0.1:6379/0', 'redis:'],
    ] as const) {
      for (const command of [['serve'], ['migrate']]) {
        const res = await petstoreAsync(command, { DATABASE_URL: url, PORT: '0' }, 60_000);
        expect(res.status, url).toBe(1);
        expect(res.stderr).toContain(
          `DATABASE_URL names a database this server does not speak (${scheme}): give postgres://user:password@host:5432/database for PostgreSQL, or a SQLite file path`,
        );
        expect(res.stderr + res.stdout).not.toMatch(/hunter2/);
      }
    }
    // Nothing was made of those names, here or anywhere relative to the working directory.
    expect(existsSync(join(process.cwd(), 'postgress:'))).toBe(false);
    expect(existsSync(join(process.cwd(), 'mysql:'))).toBe(false);
    // Every URL setting that is refused is named without its user and password.
    const res = petstore(['migrate'], {
      DATABASE_URL: join(tmp, 'x.db'),
      MESSAGE_WEBHOOK_URL: 'ftp://hook:hunter2@hooks.example/in',
      PUBLIC_BASE_URL: 'https://me:hunter2@api.example/v2',
      CORS_ORIGINS: 'https://cors:hunter2@app.example',
      OIDC_ISSUERS: 'http://iss:hunter2@issuer.example',
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/MESSAGE_WEBHOOK_URL must be an http\(s\) URL \(got 'ftp:\/\/\*\*\*@hooks\.example\/in'\)/);
    expect(res.stderr).toMatch(/PUBLIC_BASE_URL must be an http\(s\) URL ending in \/v1 \(got 'https:\/\/\*\*\*@api\.example\/v2'\)/);
    expect(res.stderr).toMatch(/CORS_ORIGINS/);
    expect(res.stderr).toMatch(/OIDC_ISSUERS/);
    expect(res.stderr).not.toMatch(/hunter2/);
  });

  it('reports invalid configuration in one clear message, exit 1, no stack', () => {
    const res = petstore(['migrate'], { PORT: 'abc', LOG_LEVEL: 'loud', STAGING_BASE_URL: 'https://staging.example.test/api' });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/PORT must be an integer from 0 to 65535 \(got 'abc'\)/);
    expect(res.stderr).toMatch(/LOG_LEVEL must be one of/);
    expect(res.stderr).toMatch(/STAGING_BASE_URL must be an http\(s\) URL ending in \/v1/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('serves: first start makes a key, the CLI works beside the running server, data survives a restart', async ({
    databaseUrl,
    serve,
  }) => {
    const env = { DATABASE_URL: databaseUrl };
    const server = await serve(env);
    const firstKey = server.output().match(KEY)?.[0] ?? '';
    expect(server.output()).toMatch(/First start: created account "default"/);
    expect(server.output()).toContain(`${server.origin}/v1/docs`);
    expect(server.output()).toContain(`GraphiQL: ${server.origin}/graphql`);
    const as = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

    const created = await fetch(`${server.origin}/v1/pets`, {
      method: 'POST',
      headers: as(firstKey),
      body: JSON.stringify({ name: 'Survivor', categoryId: 7 }),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };

    // The CLI writes to the same file while the server runs.
    const bobKey = lastLine(petstore(['keys', 'create', '--account', 'bob'], env).stdout);
    expect((await fetch(`${server.origin}/v1/pets`, { headers: as(bobKey) })).status).toBe(200);
    expect(petstore(['keys', 'revoke', bobKey.slice(0, 12)], env).status).toBe(0);
    // Another process's revocation is seen within the data-version poll (250 ms); the deadline is generous for loaded machines.
    await expect
      .poll(async () => (await fetch(`${server.origin}/v1/pets`, { headers: as(bobKey) })).status, { timeout: 30_000, interval: 50 })
      .toBe(401);

    expect(await server.stop('SIGTERM')).toBe(0);
    // last_used_at is written in batches, and the last batch on shutdown.
    expect(petstore(['keys', 'list'], env).stdout).toMatch(/default\s+\S+\s+\d{4}-\S+\s+-/);

    const again = await serve(env);
    expect(again.output()).not.toMatch(KEY);
    const read = await fetch(`${again.origin}/v1/pets/${pet.id}`, { headers: as(firstKey) });
    expect(await read.json()).toEqual({ id: pet.id, name: 'Survivor', categoryId: 7, status: 'available' });
    expect(await again.stop('SIGINT')).toBe(0);
  });

  it('serves with `npm start`, as the README says; SIGTERM to npm stops the server, exit 0', async ({ databaseUrl }) => {
    const port = await freePort();
    const child = spawn('npm', ['start', '--silent'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const health = await waitForOk(`http://127.0.0.1:${port}/healthz`, 150_000);
      expect(health).toBe(200);
      // The key is printed once the server listens, so it may show just after the first answer.
      await expect.poll(() => output, { timeout: 30_000, interval: 50 }).toMatch(KEY);
    } finally {
      // npm runs the script through sh; `exec` in it makes the signal reach node, not orphan it.
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 180_000);

  it('does not make a key on first start in production', async ({ databaseUrl, serve }) => {
    const env = { DATABASE_URL: databaseUrl, NODE_ENV: 'production' };
    const server = await serve(env);
    expect(await server.stop()).toBe(0);
    expect(server.output()).not.toMatch(KEY);
    expect(petstore(['keys', 'list'], env).stdout).toMatch(/No API keys yet/);
    // ... but says how to get one (the log is flushed by the time it has stopped), until there is one.
    expect(server.output()).toMatch(/no usable API key exists yet: .*npx petstore keys create --account NAME/);
    petstore(['keys', 'create', '--account', 'ops'], env);
    const again = await serve(env);
    expect(await again.stop()).toBe(0);
    expect(again.output()).not.toMatch(/no usable API key/);
  });

  it("shows a quiet server's log lines within a moment, not only once a batch fills or at exit", async ({ databaseUrl, serve }) => {
    const server = await serve({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
    await fetch(`${server.origin}/v1/pets`);
    // Nothing fills an 8 KiB batch here and the server keeps running: a line shows only through the 100 ms flush.
    await expect.poll(() => server.output(), { timeout: 30_000, interval: 20 }).toMatch(/"method":"GET","url":"\/v1\/pets","status":401/);
    expect(server.output()).toMatch(/"msg":"Server listening at/);
    expect(await server.stop()).toBe(0);
  });

  it('writes only JSON lines on stdout; the ready line names version, engine, last migration and the bound address', async ({
    databaseUrl,
    serve,
  }) => {
    const server = await serve({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
    expect(await server.stop()).toBe(0);
    const lines = server.stdout().trimEnd().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const port = new URL(server.origin).port;
    expect(parsed).toContainEqual(
      expect.objectContaining({
        msg: 'ready',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        engine: ENGINE,
        migration: LATEST_MIGRATION,
        address: `127.0.0.1:${port}`,
      }),
    );
    // The lines for a person, the first key among them, are on stderr.
    expect(server.stdout()).not.toMatch(KEY);
    expect(server.output()).toMatch(KEY);
    expect(server.output()).toContain(`Petstore Gateway is ready at ${server.origin} (listening on 127.0.0.1:${port})`);
  });
});
