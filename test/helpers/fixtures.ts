import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { test as base } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { startServer } from './cli.ts';
import type { RunningServer } from './cli.ts';
import { freshDatabase } from './test-database.ts';
import { startTestApp } from './test-app.ts';
import type { TestApp } from './test-app.ts';
import { startReceiver } from './webhook-receiver.ts';
import type { Receiver, ReceivedRequest, Reply } from './webhook-receiver.ts';

export type AppEnv = Record<string, string>;

export interface MakeAppOptions {
  /** Wraps the app's database, e.g. with Kysely plugins that observe queries. */
  wrapDb?: (db: Kysely<Database>) => Kysely<Database>;
  /** Where the app's log lines go. */
  logStream?: { write(line: string): void };
}

/** The `makeApp` fixture: an app of the test's own, closed when the test ends. */
export type MakeApp = (env?: AppEnv, options?: MakeAppOptions) => Promise<TestApp>;

/**
 * The test API of this suite: `it` with an app on a temporary database.
 * - `t`: one app for the whole file (a file sets its environment with `it.override('appEnv', {...})`
 *   and its database wrapper or log stream with `it.override('appOptions', {...})`, and seeds it in
 *   `it.beforeAll(async ({ t }) => …)`);
 * - `makeApp(env)`: an app of the test's own, closed when the test ends;
 * - `tmp`: a temporary folder, removed when the test ends;
 * - `databaseUrl`: a fresh, empty database for processes the test starts (the CLI, servers);
 * - `webhook(decide)`: a real webhook receiver on loopback, closed when the test ends;
 * - `serve(env)`: `petstore serve` as a process, killed when the test ends if it still runs.
 */
export const it = base
  .extend('appEnv', { scope: 'file' }, {} as AppEnv)
  .extend('appOptions', { scope: 'file' }, {} as MakeAppOptions)
  .extend('t', { scope: 'file' }, async ({ appEnv, appOptions }, { onCleanup }): Promise<TestApp> => {
    const app = await startTestApp(appEnv, appOptions.wrapDb, appOptions.logStream);
    onCleanup(() => app.close());
    return app;
  })
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructuring
  .extend('makeApp', async ({}, { onCleanup }) => {
    const made: TestApp[] = [];
    onCleanup(async () => {
      for (const app of made.splice(0)) await app.close();
    });
    const makeApp: MakeApp = async (env = {}, { wrapDb, logStream } = {}) => {
      const app = await startTestApp(env, wrapDb, logStream);
      made.push(app);
      return app;
    };
    return makeApp;
  })
  // eslint-disable-next-line no-empty-pattern -- as above
  .extend('tmp', async ({}, { onCleanup }) => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-test-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  })
  .extend('databaseUrl', async ({ tmp }, { onCleanup }) => {
    const fresh = await freshDatabase(tmp);
    onCleanup(() => fresh.drop());
    return fresh.url;
  })
  // eslint-disable-next-line no-empty-pattern -- as above
  .extend('webhook', async ({}, { onCleanup }) => {
    const started: Receiver[] = [];
    onCleanup(async () => {
      for (const receiver of started.splice(0)) await receiver.close();
    });
    return async (decide: (request: ReceivedRequest, index: number) => Reply | Promise<Reply>): Promise<Receiver> => {
      const receiver = await startReceiver(decide);
      started.push(receiver);
      return receiver;
    };
  })
  // eslint-disable-next-line no-empty-pattern -- as above
  .extend('serve', async ({}, { onCleanup }) => {
    const running: RunningServer[] = [];
    onCleanup(async () => {
      for (const server of running.splice(0))
        if (server.process.exitCode === null && server.process.signalCode === null) await server.stop('SIGKILL');
    });
    return async (env: AppEnv): Promise<RunningServer> => {
      const server = await startServer(env);
      running.push(server);
      return server;
    };
  });

export const test = it;
export { describe, expect } from 'vitest';
