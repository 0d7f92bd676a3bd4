import { existsSync, statSync } from 'node:fs';
import { petstore } from '../helpers/cli.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { ENGINE, query } from '../helpers/test-database.ts';
import { keepAliveAgent, rawRequest, rawSocket } from '../helpers/raw-http.ts';

/** A database with a key (made by the CLI) for the servers of one test. */
function database(databaseUrl: string) {
  const env = { DATABASE_URL: databaseUrl, MESSAGE_DELIVERY: 'false', RATE_LIMIT_PER_MINUTE: '0' };
  const key = petstore(['keys', 'create', '--account', 'writer'], env).stdout.trim().split('\n').at(-1) ?? '';
  return { env, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } };
}

describe('kill -9 under concurrent writes', () => {
  it('keeps every acknowledged write exactly once, over 10 rounds, with an intact database', async ({ databaseUrl, serve }) => {
    const { env, headers } = database(databaseUrl);
    const acknowledged = new Map<string, number>();
    for (let round = 0; round < 10; round++) {
      const server = await serve(env);
      const origin = server.origin;
      let dead = false;
      const writers = Array.from({ length: 12 }, async (_, w) => {
        for (let n = 0; !dead; n++) {
          const name = `r${round}-w${w}-n${n}`;
          try {
            const res = await rawRequest(origin, 'POST', '/v1/pets', headers, JSON.stringify({ name, categoryId: 1 + n }));
            if (res.status === 201) acknowledged.set(name, (JSON.parse(res.body) as { id: number }).id);
          } catch {
            return; // the server is gone; this write was never acknowledged
          }
        }
      });
      // Killed mid-write however fast the machine is: once this round has 10 acknowledged writes,
      // at a random moment within the next 300 ms.
      const before = acknowledged.size;
      await expect.poll(() => acknowledged.size - before, { timeout: 60_000, interval: 10 }).toBeGreaterThanOrEqual(10);
      await new Promise((r) => setTimeout(r, Math.random() * 300));
      dead = true;
      await server.stop('SIGKILL');
      await Promise.all(writers);
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(100);

    if (ENGINE === 'sqlite') expect(await query(env.DATABASE_URL, 'pragma integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    {
      const rows = (
        await query<{ id: number | string; name: string; category_id: number | string; status: string }>(
          env.DATABASE_URL,
          'select id, name, category_id, status from pets',
        )
      ).map((row) => ({ ...row, id: Number(row.id), category_id: Number(row.category_id) }));
      const byName = new Map<string, number[]>();
      for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row.id]);
      for (const [name, id] of acknowledged) expect(byName.get(name), name).toEqual([id]);
      // Nothing half-written: every stored row is a whole, valid pet.
      for (const row of rows) {
        expect(row.name).toMatch(/^r\d+-w\d+-n\d+$/);
        expect(row.category_id).toBeGreaterThanOrEqual(1);
        expect(row.status).toBe('available');
      }
      expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
    }
  }, 240_000);
});

describe.each(['SIGTERM', 'SIGINT'] as const)('%s under load', (signal) => {
  it('stops accepting, finishes in-flight requests without resets, checkpoints the WAL and exits 0 before the forced exit', async ({
    databaseUrl,
    serve,
  }) => {
    const { env, headers } = database(databaseUrl);
    const server = await serve(env);
    const origin = server.origin;
    const outcomes: string[] = [];
    const created: string[] = [];
    const connected = new Set<number>();
    let stopping = false;
    // Keep-alive clients, as real clients and load balancers are: each told `Connection: close` once draining starts.
    const clients = Array.from({ length: 16 }, async (_, c) => {
      const agent = keepAliveAgent();
      for (let n = 0; ; n++) {
        const name = `c${c}-n${n}`;
        try {
          const res = await rawRequest(
            origin,
            n % 2 ? 'GET' : 'POST',
            '/v1/pets',
            headers,
            n % 2 ? undefined : JSON.stringify({ name, categoryId: 1 }),
            agent,
          );
          outcomes.push(String(res.status));
          connected.add(c);
          if (res.status === 201) created.push(name);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
          outcomes.push(code);
          if (code === 'ECONNREFUSED' || stopping) return;
        }
      }
    });
    // Under load however fast the machine is: the signal comes once every client holds an open
    // connection (one answered) and 10 writes were acknowledged. A connection still being opened
    // when the listener closes is reset by the kernel, which no server can prevent (operations.md).
    await expect.poll(() => connected.size === 16 && created.length >= 10, { timeout: 60_000, interval: 10 }).toBe(true);
    stopping = true;
    const exitCode = await server.stop(signal);
    await Promise.all(clients);

    // 0, not the 1 of the forced exit after the 10 s grace: the drain finished by itself.
    expect(exitCode).toBe(0);
    // Every request that reached the server got an answer; afterwards connections are refused, never reset.
    const failures = outcomes.filter((o) => !/^\d+$/.test(o));
    expect(failures.filter((f) => f !== 'ECONNREFUSED')).toEqual([]);
    expect(outcomes.filter((o) => /^\d+$/.test(o) && !['200', '201', '503'].includes(o))).toEqual([]);
    if (ENGINE === 'sqlite') {
      // SQLite only: closed cleanly, the WAL was checkpointed into the database and removed.
      const wal = `${env.DATABASE_URL}-wal`;
      expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
      expect(await query(env.DATABASE_URL, 'pragma integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    }
    const names = new Set((await query<{ name: string }>(env.DATABASE_URL, 'select name from pets')).map((r) => r.name));
    for (const name of created) expect(names.has(name), name).toBe(true);
  }, 180_000);
});

describe('a request whose connection is cut by garbage after it', { timeout: 180_000 }, () => {
  it('leaves the drain bookkeeping, so SIGTERM still drains at once and exits 0', async ({ databaseUrl, serve }) => {
    const { env } = database(databaseUrl);
    const server = await serve(env);
    // A 2-byte body followed by bytes that are not HTTP: node answers 400 and ends the socket
    // while the first request is still being handled.
    const attack = 'POST /nope HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}XYZ garbage\r\n\r\n';
    for (let i = 0; i < 20; i++) expect(await rawSocket(server.origin, attack)).toMatch(/^HTTP\/1\.1 400 /);
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    // Before the fix each such request stayed "in flight" forever: the drain waited for the
    // 10 s grace and the process exited 1.
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).not.toMatch(/shutdown took too long/);
  });
});
