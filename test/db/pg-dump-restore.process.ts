import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from '../helpers/fixtures.ts';
import type { RunningServer } from '../helpers/cli.ts';
import { ENGINE, TEST_DATABASE_URL } from '../helpers/test-database.ts';

const KEY = /psk_[A-Za-z0-9]{40}/;

/** The URL of another database on the test server. */
function databaseNamed(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  url.search = '';
  return url.toString();
}

/** Runs a PostgreSQL client tool as docs/operations.md writes it. */
const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * What a client reads: every answer that shows pets, orders, keys and messages. Without keys'
 * lastUsedAt, which the servers write in batches (and on shutdown): it moves by design.
 */
async function answers(server: RunningServer, key: string, messageId: string): Promise<unknown[]> {
  const headers = { authorization: `Bearer ${key}` };
  const read = async (path: string) => {
    const res = await fetch(`${server.origin}${path}`, { headers });
    const body: unknown = JSON.parse(await res.text(), (name, value: unknown) => (name === 'lastUsedAt' ? undefined : value));
    return { path, status: res.status, body };
  };
  return Promise.all([read('/v1/pets?limit=100'), read('/v1/store/orders'), read('/v1/keys'), read(`/messages/${messageId}`)]);
}

describe.runIf(ENGINE === 'postgres')('pg_dump and pg_restore, as docs/operations.md gives them', { timeout: 300_000 }, () => {
  it('a dump restored into a fresh database serves the same pets, orders, keys and messages, and takes new writes', async ({
    tmp,
    serve,
  }) => {
    const names = [`petstore_dump_${process.pid}`, `petstore_restored_${process.pid}`];
    const [source, restored] = names.map(databaseNamed) as [string, string];
    for (const name of names) run('dropdb', ['--if-exists', '--maintenance-db', TEST_DATABASE_URL, name]);
    run('createdb', ['--maintenance-db', TEST_DATABASE_URL, names[0] ?? '']);
    try {
      const env = { MESSAGE_DELIVERY: 'false' };
      const original = await serve({ ...env, DATABASE_URL: source });
      const key = original.output().match(KEY)?.[0] ?? '';
      const post = (path: string, body: unknown) =>
        fetch(`${original.origin}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as { id: number | string } }));
      for (const name of ['Rex', 'Tom', 'Kiki']) expect((await post('/v1/pets', { name, categoryId: 1 })).status).toBe(201);
      expect((await post('/v1/store/orders', { petId: 2 })).status).toBe(201);
      expect((await post('/v1/keys', { name: 'second' })).status).toBe(201);
      const message = await post('/messages', { message: 'Hello' });
      expect(message.status).toBe(201);
      const before = await answers(original, key, String(message.body.id));
      expect(await original.stop()).toBe(0);

      const dump = join(tmp, 'petstore.dump');
      run('pg_dump', ['--format=custom', `--file=${dump}`, source]);
      run('createdb', ['--maintenance-db', TEST_DATABASE_URL, names[1] ?? '']);
      run('pg_restore', ['--no-owner', `--dbname=${restored}`, dump]);

      const copy = await serve({ ...env, DATABASE_URL: restored, MIGRATE_ON_START: 'false' });
      expect(await answers(copy, key, String(message.body.id))).toEqual(before);
      const next = await fetch(`${copy.origin}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'After', categoryId: 1 }),
      });
      expect(next.status).toBe(201);
      expect(((await next.json()) as { id: number }).id).toBe(4);
      expect(await copy.stop()).toBe(0);
    } finally {
      for (const name of names) run('dropdb', ['--if-exists', '--maintenance-db', TEST_DATABASE_URL, name]);
    }
  });
});
