import { existsSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { petstoreAsync } from '../helpers/cli.ts';
import { ENGINE } from '../helpers/test-database.ts';

const KEY = /psk_[A-Za-z0-9]{40}/;

interface Acknowledged {
  id: number;
  at: number;
}

/** Creates pets over HTTP, `concurrency` at a time, until `stop()`; every 201 with when it arrived. */
function writeUntilStopped(origin: string, key: string, concurrency: number): { stop(): Promise<Acknowledged[]> } {
  const acknowledged: Acknowledged[] = [];
  let running = true;
  let n = 0;
  const worker = async () => {
    while (running) {
      const res = await fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `pet-${++n}`, categoryId: 1 }),
      });
      if (res.status === 201) acknowledged.push({ id: ((await res.json()) as { id: number }).id, at: Date.now() });
      else throw new Error(`a write failed while the backup ran: ${res.status} ${await res.text()}`);
    }
  };
  const done = Promise.all(Array.from({ length: concurrency }, worker));
  // A failed write fails the test at stop(), not as an unhandled rejection before it.
  done.catch(() => (running = false));
  return {
    stop: async () => {
      running = false;
      await done;
      return acknowledged;
    },
  };
}

describe.runIf(ENGINE === 'sqlite')('petstore backup, while the server serves writes', { timeout: 300_000 }, () => {
  it('holds every write acknowledged before it began, passes integrity_check, and a server started on it serves them', async ({
    databaseUrl,
    tmp,
    serve,
  }) => {
    const server = await serve({ DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '0' });
    const key = server.output().match(KEY)?.[0] ?? '';
    const load = writeUntilStopped(server.origin, key, 4);
    // Some writes land before the backup starts, and they keep coming while it runs.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const copy = join(tmp, 'backup.db');
    const began = Date.now();
    const backup = await petstoreAsync(['backup', copy], { DATABASE_URL: databaseUrl });
    const acknowledged = await load.stop();
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up the SQLite database '.*' to .*backup\.db in \d+ ms\.$/m);
    expect(await server.stop()).toBe(0);

    const before = acknowledged.filter((write) => write.at < began).map((write) => write.id);
    expect(before.length).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(before.length);
    // One file, whole: no -wal beside it, and SQLite finds nothing wrong in it.
    expect(existsSync(`${copy}-wal`)).toBe(false);
    const file = new SQLite(copy, { readonly: true });
    try {
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set((file.prepare('select id from pets').all() as { id: number }[]).map((row) => row.id));
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      file.close();
    }

    const restored = await serve({ DATABASE_URL: copy });
    const headers = { authorization: `Bearer ${key}` };
    for (const id of [before[0], before.at(-1)]) {
      const res = await fetch(`${restored.origin}/v1/pets/${id}`, { headers });
      expect(res.status).toBe(200);
    }
    const listed = (await fetch(`${restored.origin}/graphql`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ pets { totalCount } }' }),
    }).then((res) => res.json())) as { data: { pets: { totalCount: number } } };
    expect(listed.data.pets.totalCount).toBeGreaterThanOrEqual(before.length);
    expect(await restored.stop()).toBe(0);
  });
});

describe.runIf(ENGINE === 'postgres')('petstore backup on PostgreSQL', { timeout: 300_000 }, () => {
  it('refuses, pointing at pg_dump, and exits: a cron job calling it does not hang', async ({ databaseUrl, tmp }) => {
    const env = { DATABASE_URL: databaseUrl };
    // On a migrated database, where the key-change poll finds its table (it once kept the process alive).
    expect((await petstoreAsync(['migrate'], env)).status).toBe(0);
    const refused = await petstoreAsync(['backup', join(tmp, 'copy.db')], env, 60_000);
    expect(refused.stderr).toMatch(/is backed up with pg_dump: see "Backup and restore" in docs\/operations\.md/);
    // Killed by the time limit, it would have no status.
    expect(refused.status).toBe(1);
    expect(existsSync(join(tmp, 'copy.db'))).toBe(false);
  });
});
