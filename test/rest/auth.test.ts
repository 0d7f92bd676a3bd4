import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { KEY_CHANGES_POLL_MS } from '../../src/db/data-version.ts';
import { createApiKey, revokeApiKey } from '../../src/services/api-keys/index.ts';
import { petstore } from '../helpers/cli.ts';
import { graphql } from '../helpers/graphql.ts';
import { spyOnQueries } from '../helpers/select-spy.ts';
import { ENGINE, query } from '../helpers/test-database.ts';
import type { SeenQuery } from '../helpers/select-spy.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

const protectedRoutes = [
  { method: 'GET', url: '/v1/pets' },
  { method: 'POST', url: '/v1/pets', payload: { name: 'A', categoryId: 1 } },
  { method: 'GET', url: '/v1/pets/1' },
  { method: 'GET', url: '/v1/store/orders' },
  { method: 'POST', url: '/messages', payload: { message: 'hi' } },
  { method: 'GET', url: '/messages/msg_1' },
] as const;

/**
 * Resolves once the app has looked for other processes' key changes at least once more. On
 * SQLite that look is a timer of KEY_CHANGES_POLL_MS reading a counter without I/O: a timer set
 * for twice that fires after it (Node runs due timers in order). On PostgreSQL it is a query of
 * key_epoch: PostgreSQL's own statistics count its scans, past the one made at start.
 */
async function keyPollLanded(t: TestApp): Promise<void> {
  if (ENGINE === 'sqlite') {
    await new Promise((resolve) => setTimeout(resolve, 2 * KEY_CHANGES_POLL_MS));
    return;
  }
  const scans = async () =>
    Number(
      (
        await query<{ scans: string }>(
          t.databaseUrl,
          "select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as scans from pg_stat_user_tables where relname = 'key_epoch' and schemaname = current_schema()",
        )
      )[0]?.scans ?? 0,
    );
  await expect.poll(scans, { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(2);
}

describe('bearer authentication (contract §5)', () => {
  const badHeaders: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['an empty Authorization header', { authorization: '' }],
    ['the Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer with no token', { authorization: 'Bearer ' }],
    ['a malformed key', { authorization: 'Bearer not-a-key' }],
    ['an unknown well-formed key', { authorization: `Bearer psk_${'A'.repeat(40)}` }],
  ];
  for (const route of protectedRoutes) {
    it.for(badHeaders)(`${route.method} ${route.url}: 401 with %s`, async ([_label, headers], { t }) => {
      const res = await t.app.inject({ ...route, headers });
      expect(res.statusCode).toBe(401);
      expectErrorBody(res, 'UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="petstore"');
    });
  }

  it.for([
    ['no header', undefined, 'Missing API key: send Authorization: Bearer <API_KEY>.'],
    ['Bearer with no token', 'Bearer ', 'Missing API key: send Authorization: Bearer <API_KEY>.'],
    [
      'the key without the scheme',
      'psk_'.padEnd(44, 'A'),
      'The Authorization header must use the Bearer scheme: send Authorization: Bearer <API_KEY>.',
    ],
    [
      'the Basic scheme',
      'Basic dXNlcjpwYXNz',
      'The Authorization header must use the Bearer scheme: send Authorization: Bearer <API_KEY>.',
    ],
    ['an unknown key', `Bearer psk_${'A'.repeat(40)}`, 'The API key is invalid or has been revoked.'],
  ] as const)('says what is wrong with %s, in the same words on REST and GraphQL', async ([_label, authorization, message], { t }) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    expect(expectErrorBody(await t.app.inject({ url: '/v1/pets', headers }), 'UNAUTHORIZED').message).toBe(message);
    const { body } = await graphql(t, '{ pets { totalCount } }', undefined, headers);
    expect(body.errors?.[0]?.message).toBe(message);
  });

  it('stores nothing when a write is refused for want of a key', async ({ t }) => {
    await t.app.inject({ method: 'POST', url: '/v1/pets', payload: { name: 'Ghost', categoryId: 1 } });
    const ghosts = await t.db.selectFrom('pets').select('id').where('name', '=', 'Ghost').execute();
    expect(ghosts).toEqual([]);
  });

  it('accepts the scheme in any case', async ({ t }) => {
    const res = await t.app.inject({ url: '/v1/pets', headers: { authorization: `bearer ${t.key}` } });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a key on its first request after it is revoked', async ({ t }) => {
    const { key, id } = await createApiKey(t.db, 'soon-gone');
    const headers = { authorization: `Bearer ${key}` };
    expect((await t.app.inject({ url: '/v1/pets', headers })).statusCode).toBe(200);
    await revokeApiKey(t.db, String(id));
    const res = await t.app.inject({ url: '/v1/pets', headers });
    expect(res.statusCode).toBe(401);
    expect(expectErrorBody(res, 'UNAUTHORIZED').message).toMatch(/invalid or has been revoked/);
  });

  it('refuses a key soon after another process (the CLI) revokes it', async ({ t }) => {
    const { key, id } = await createApiKey(t.db, 'revoked-elsewhere');
    const headers = { authorization: `Bearer ${key}` };
    // Twice, so the second answer comes from the verified-key cache.
    expect((await t.app.inject({ url: '/v1/pets', headers })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/pets', headers })).statusCode).toBe(200);
    expect(petstore(['keys', 'revoke', String(id)], { DATABASE_URL: t.databaseUrl }).status).toBe(0);
    // The bound is the data-version poll (250 ms); asked until refused, within a deadline a loaded machine cannot miss.
    await expect
      .poll(async () => (await t.app.inject({ url: '/v1/pets', headers })).statusCode, { timeout: 30_000, interval: 20 })
      .toBe(401);
  });

  it('refuses a key whose secret part is wrong even when its prefix is right', async ({ t }) => {
    const forged = `${t.key.slice(0, 12)}${'Z'.repeat(32)}`;
    const res = await t.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${forged}` } });
    expect(res.statusCode).toBe(401);
  });

  it('looks up a known prefix with a wrong secret exactly as an unknown key: one read by the whole key hash, so timing tells nothing', async ({
    makeApp,
  }) => {
    const reads: SeenQuery[] = [];
    const spied = await makeApp({}, { wrapDb: spyOnQueries((query) => reads.push(query)) });
    {
      const readsFor = async (key: string) => {
        reads.length = 0;
        expect((await spied.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(401);
        return reads.filter((q) => /api_keys/.test(q.sql));
      };
      const knownPrefix = `${spied.key.slice(0, 12)}${'Z'.repeat(32)}`;
      const unknown = `psk_${'Q'.repeat(40)}`;
      const [forKnown, forUnknown] = [await readsFor(knownPrefix), await readsFor(unknown)];
      expect(forKnown).toHaveLength(1);
      expect(forKnown.map((q) => q.sql)).toEqual(forUnknown.map((q) => q.sql));
      expect(forKnown[0]?.parameters).toEqual([createHash('sha256').update(knownPrefix).digest('hex')]);
      expect(forUnknown[0]?.parameters).toEqual([createHash('sha256').update(unknown).digest('hex')]);
    }
  });

  it("trusts a key verified by the app's very first request past the next poll of other processes' changes", async ({ makeApp }) => {
    const keyReads: string[] = [];
    const spied = await makeApp({}, { wrapDb: spyOnQueries((query) => /"key_hash" = /.test(query.sql) && keyReads.push(query.sql)) });
    expect((await spied.call({ url: '/v1/pets' })).statusCode).toBe(200);
    expect(keyReads).toHaveLength(1);
    // Past a poll that has landed, with nothing written anywhere: no reason to read the key again.
    await keyPollLanded(spied);
    expect((await spied.call({ url: '/v1/pets' })).statusCode).toBe(200);
    expect(keyReads).toHaveLength(1);
  });

  it('issues keys of the form psk_ + 40 base62 characters and keeps them only as a SHA-256 hash', async ({ t }) => {
    const { key } = await createApiKey(t.db, 'hash-check');
    expect(key).toMatch(/^psk_[A-Za-z0-9]{40}$/);
    // Everything stored: on SQLite the file and its WAL byte for byte, on PostgreSQL every row of every table as text.
    const stored =
      ENGINE === 'sqlite'
        ? [readFileSync(t.databaseUrl), existsSync(`${t.databaseUrl}-wal`) ? readFileSync(`${t.databaseUrl}-wal`) : Buffer.alloc(0)]
        : [Buffer.from(JSON.stringify(await everyRow(t.databaseUrl)))];
    for (const bytes of stored) {
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes.includes(key)).toBe(false);
      expect(bytes.includes(t.key)).toBe(false);
    }
    const rows = await t.db.selectFrom('api_keys').selectAll().execute();
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.filter((r) => !/^[0-9a-f]{64}$/.test(r.key_hash))).toEqual([]);
  });

  it('does not write to the database per request: last_used_at lands in a batch, at the latest on close', async ({ makeApp }) => {
    const made = await makeApp();
    const { key, id } = await createApiKey(made.db, 'usage');
    const before = Date.now();
    for (let i = 0; i < 5; i++) await made.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${key}` } });
    const lastUsed = async () =>
      (await query<{ last_used_at: string | null }>(made.databaseUrl, `select last_used_at from api_keys where id = ${id}`))[0]
        ?.last_used_at;
    expect(await lastUsed()).toBeNull();
    // Closing the app writes the pending batch: the time of the last use, read from outside.
    await made.app.close();
    const written = await lastUsed();
    expect(written).not.toBeNull();
    expect(new Date(String(written)).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(String(written)).getTime()).toBeLessThanOrEqual(Date.now());
  });
});

/** PostgreSQL: the rows of every table of the app's schema, as JSON. */
async function everyRow(url: string): Promise<unknown[]> {
  const tables = await query<{ table_name: string }>(
    url,
    'select table_name from information_schema.tables where table_schema = current_schema()',
  );
  const rows: unknown[] = [];
  for (const { table_name: table } of tables) rows.push(...(await query(url, `select * from ${table}`)));
  return rows;
}
