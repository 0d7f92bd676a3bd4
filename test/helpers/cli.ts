import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/petstore.js', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `petstore …` as a process, the way a person would. */
export function petstore(args: string[], env: Record<string, string>): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `petstore …` as a process, without blocking this one (a test may hold a port the child needs to find taken). */
export function petstoreAsync(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningServer {
  origin: string;
  process: ChildProcess;
  /** stdout and stderr as they arrived. */
  output(): string;
  /** stdout alone: the JSON log lines. */
  stdout(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `petstore serve` and waits until it says it is ready: listening, first-start key (if
 * any) printed. On `env.PORT` when given (a restart behind a balancer), else on a free port.
 * `command` is what runs `bin/petstore.js serve`: this Node, or another with its flags.
 */
export async function startServer(env: Record<string, string>, command: string[] = [process.execPath]): Promise<RunningServer> {
  // A free port found here may be taken before the server binds it (the system hands the same
  // ephemeral ports to outgoing connections: the database's, a balancer's): then another is tried.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(env.PORT ? Number(env.PORT) : await freePort(), env, command);
    } catch (error) {
      if (env.PORT || attempt >= 5 || !(error instanceof PortTaken)) throw error;
    }
  }
}

/** The server exited because its port was taken between finding it free and binding it. */
class PortTaken extends Error {}

async function startOn(port: number, env: Record<string, string>, [node = process.execPath, ...flags]: string[]): Promise<RunningServer> {
  const child = spawn(node, [...flags, BIN, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const origin = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 120_000; !/Petstore Gateway is ready at /.test(output);) {
    if (child.exitCode !== null) {
      const early = `server exited early: ${output}`;
      throw /port \d+ is already in use/.test(output) ? new PortTaken(early) : new Error(early);
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!(await fetch(`${origin}/healthz`)).ok) throw new Error(`server said it was ready but /healthz did not answer: ${output}`);
  return {
    origin,
    process: child,
    output: () => output,
    stdout: () => stdout,
    stop: (signal = 'SIGTERM') => {
      child.kill(signal);
      return exited;
    },
  };
}
