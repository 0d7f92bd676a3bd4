import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The image's configuration, as `skopeo inspect --config` shows it. */
export interface ImageConfig {
  created: string;
  config: {
    User: string;
    ExposedPorts: Record<string, object>;
    Env: string[];
    Entrypoint: string[];
    Cmd: string[];
    Volumes: Record<string, object>;
    WorkingDir: string;
    Labels: Record<string, string>;
    StopSignal: string;
  };
  rootfs: { diff_ids: string[] };
  history: { created_by: string }[];
}

/** An image unpacked the way a container runtime does it: its root filesystem and the runtime config umoci derives from the image's. */
export interface UnpackedImage {
  rootfs: string;
  /** runc's config.json for the image as it stands (user, command, environment, working folder). */
  spec: RuntimeSpec;
}

interface RuntimeSpec {
  process: {
    terminal: boolean;
    args: string[];
    env: string[];
    user: { uid: number; gid: number };
    capabilities?: Record<string, string[]>;
  };
  root: { path: string; readonly?: boolean };
  mounts: { destination: string; type: string; source: string; options?: string[] }[];
  linux: { namespaces: { type: string }[] };
  [key: string]: unknown;
}

const tool = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export function imageConfig(reference: string): ImageConfig {
  return JSON.parse(tool('skopeo', ['inspect', '--config', reference])) as ImageConfig;
}

/** Copies an archive (`oci-archive:…`, `docker-archive:…`) to an OCI layout and unpacks it with umoci. */
export function unpackImage(reference: string, dir: string): UnpackedImage {
  mkdirSync(dir, { recursive: true });
  tool('skopeo', ['copy', '--quiet', reference, `oci:${join(dir, 'layout')}:image`]);
  tool('umoci', ['unpack', '--image', `${join(dir, 'layout')}:image`, join(dir, 'bundle')]);
  return {
    rootfs: join(dir, 'bundle', 'rootfs'),
    spec: JSON.parse(readFileSync(join(dir, 'bundle', 'config.json'), 'utf8')) as RuntimeSpec,
  };
}

export interface RunOptions {
  /** Settings added to the image's environment, as `docker run -e` adds them. */
  env?: Record<string, string>;
  /** A host folder mounted at /data (the image's volume). */
  data?: string;
  /** Arguments after the entrypoint, in place of the image's command (`docker run IMAGE keys list`). */
  args?: string[];
}

export interface Container {
  id: string;
  /** stdout and stderr as they arrived. */
  output(): string;
  /** The container's first process as the host sees it (its uid, for one). */
  pid(): number;
  /** A command in the running container, as `docker exec` runs it: the image's user, environment and working folder. */
  exec(args: string[]): { status: number | null; stdout: string; stderr: string };
  /** Sends the signal to the container's first process, as `docker stop` does. */
  kill(signal: string): void;
  /** Resolves with the exit code of the container's first process. */
  exited: Promise<number | null>;
  /** Stops it if it still runs and removes it. */
  remove(): void;
}

let made = 0;

/**
 * Runs the image with runc as a container runtime runs it by default, hardened as the committed
 * Kubernetes manifest asks (read-only root filesystem, no capabilities, a tmpfs /tmp), on the
 * host's network (no bridge here: the test reaches it on 127.0.0.1).
 */
export function runContainer(image: UnpackedImage, dir: string, { env = {}, data, args }: RunOptions = {}): Container {
  const id = `petstore-test-${process.pid}-${++made}`;
  const bundle = join(dir, id);
  mkdirSync(bundle, { recursive: true });
  const spec = structuredClone(image.spec);
  spec.root = { path: image.rootfs, readonly: true };
  spec.process.terminal = false;
  if (args) spec.process.args = [...spec.process.args.slice(0, spec.process.args.indexOf('bin/petstore.js') + 1), ...args];
  spec.process.env = [...spec.process.env, ...Object.entries(env).map(([name, value]) => `${name}=${value}`)];
  spec.process.capabilities = {};
  spec.linux.namespaces = spec.linux.namespaces.filter(({ type }) => type !== 'network');
  spec.mounts = [
    ...spec.mounts.filter(({ destination }) => destination !== '/data'),
    { destination: '/tmp', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'nodev', 'mode=1777'] },
    ...(data ? [{ destination: '/data', type: 'bind', source: data, options: ['rbind', 'rw'] }] : []),
  ];
  writeFileSync(join(bundle, 'config.json'), JSON.stringify(spec));
  const child = spawn('runc', ['run', '--bundle', bundle, id], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    id,
    output: () => output,
    pid: () => (JSON.parse(tool('runc', ['state', id])) as { pid: number }).pid,
    exec: (command) => {
      const res = spawnSync('runc', ['exec', id, ...command], { encoding: 'utf8', timeout: 60_000 });
      return { status: res.status, stdout: res.stdout, stderr: res.stderr };
    },
    kill: (signal) => void tool('runc', ['kill', id, signal]),
    exited,
    remove: () => void spawnSync('runc', ['delete', '--force', id]),
  };
}
