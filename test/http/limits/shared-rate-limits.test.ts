import { vi } from 'vitest';
import { describe, expect, it } from '../../helpers/fixtures.ts';
import { startTcpProxy } from '../../helpers/tcp-proxy.ts';
import { ENGINE } from '../../helpers/test-database.ts';
import { expectErrorBody } from '../../helpers/test-app.ts';
import { redisEnv, TEST_REDIS_URL } from '../../helpers/test-redis.ts';

const logLines = () => {
  const lines: string[] = [];
  return {
    lines,
    logStream: { write: (line: string) => void lines.push(line) },
    matching: (text: string) => lines.filter((l) => l.includes(text)),
  };
};

describe.runIf(TEST_REDIS_URL !== '')('budgets shared through Redis (REDIS_URL)', () => {
  it('spends one per-key budget across instances, and one message quota across REST and GraphQL', async ({ makeApp }) => {
    const env = { ...redisEnv(), RATE_LIMIT_PER_MINUTE: '7', MESSAGE_RATE_LIMIT_PER_MINUTE: '2' };
    const a = await makeApp(env);
    // A second instance on the same database and the same Redis.
    const b = await makeApp({ ...env, DATABASE_URL: a.databaseUrl });
    const remaining: string[] = [];
    for (const [i, instance] of [a, b, a, b].entries()) {
      const res = await instance.app.inject({ url: '/v1/pets', headers: a.auth });
      expect(res.statusCode, `request ${i}`).toBe(200);
      remaining.push(String(res.headers.ratelimit));
    }
    expect(remaining.map((r) => r.replace(/;t=\d+$/, ''))).toEqual(['"per-key";r=6', '"per-key";r=5', '"per-key";r=4', '"per-key";r=3']);

    expect((await a.app.inject({ method: 'POST', url: '/messages', headers: a.auth, payload: { message: 'one' } })).statusCode).toBe(201);
    const second = await b.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...a.auth, 'content-type': 'application/json' },
      payload: { query: 'mutation { sendMessage(message: "two") { id } }' },
    });
    expect(JSON.parse(second.body)).not.toHaveProperty('errors');
    const third = await a.app.inject({ method: 'POST', url: '/messages', headers: a.auth, payload: { message: 'three' } });
    expect(expectErrorBody(third, 'RATE_LIMITED').message).toMatch(/messages-per-key/);
    expect(await a.count('messages')).toBe(2);

    // 7 requests spent (4 lists, 3 messages, the third refused by the message quota): the budget is gone on both.
    for (const instance of [b, a]) {
      const refused = await instance.app.inject({ url: '/v1/pets', headers: a.auth });
      expectErrorBody(refused, 'RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });

  it('shares the per-address budget of requests without a valid key', async ({ makeApp }) => {
    const env = { ...redisEnv(), UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '3' };
    const a = await makeApp(env);
    const b = await makeApp({ ...env, DATABASE_URL: a.databaseUrl });
    const statuses = [];
    for (const instance of [a, b, a, b]) statuses.push((await instance.app.inject({ url: '/v1/pets' })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('lets requests through uncounted while Redis is away, says so once, and counts again when it returns', async ({ makeApp }) => {
    const redisUrl = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    const log = logLines();
    const viaProxy = new URL(TEST_REDIS_URL);
    viaProxy.port = String(proxy.port);
    const t = await makeApp({ ...redisEnv(), REDIS_URL: viaProxy.toString(), RATE_LIMIT_PER_MINUTE: '3', LOG_LEVEL: 'info' }, log);
    await vi.waitFor(async () => expect((await t.call({ url: '/v1/pets' })).headers.ratelimit).toMatch(/^"per-key";r=2;/), {
      timeout: 10_000,
    });

    await proxy.down();
    for (let i = 0; i < 5; i++) {
      const res = await t.call({ url: '/v1/pets' });
      expect(res.statusCode).toBe(200);
      // Nothing claims a count that was not taken.
      expect(res.headers).not.toHaveProperty('ratelimit');
    }
    expect(log.matching('rate limiting is off')).toHaveLength(1);
    expect(log.matching('"level":40').length).toBeGreaterThanOrEqual(1);

    await proxy.up();
    await vi.waitFor(async () => expect((await t.call({ url: '/v1/pets' })).headers.ratelimit).toMatch(/^"per-key";r=1;/), {
      timeout: 15_000,
      interval: 100,
    });
    expect(log.matching('rate limiting resumed')).toHaveLength(1);
    // Counting resumed where it was: one before the outage, one since, this one, then none left.
    expect((await t.call({ url: '/v1/pets' })).headers.ratelimit).toMatch(/^"per-key";r=0;/);
    expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(429);
    await t.close();
    await proxy.close();
  });
});

describe('rate limits without a shared store', () => {
  it('serve every request when REDIS_URL names a Redis that is not there, with one warning', async ({ makeApp }) => {
    const closed = await startTcpProxy('127.0.0.1', 1);
    await closed.down();
    const log = logLines();
    const t = await makeApp({ REDIS_URL: `redis://127.0.0.1:${closed.port}`, RATE_LIMIT_PER_MINUTE: '1', LOG_LEVEL: 'info' }, log);
    for (let i = 0; i < 4; i++) expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(200);
    expect(log.matching('rate limiting is off')).toHaveLength(1);
  });

  it('still limit sign-ups per address when Redis is not there: a security limit never fails open', async ({ makeApp }) => {
    const closed = await startTcpProxy('127.0.0.1', 1);
    await closed.down();
    const t = await makeApp({ REDIS_URL: `redis://127.0.0.1:${closed.port}`, SIGNUP: 'open' });
    const signUp = (account: string) =>
      t.app.inject({ method: 'POST', url: '/signup', payload: { account }, remoteAddress: '198.51.100.40' });
    expect((await signUp('first')).statusCode).toBe(201);
    expect((await signUp('second')).statusCode).toBe(201);
    for (const account of ['third', 'fourth']) {
      const refused = await signUp(account);
      expect(expectErrorBody(refused, 'RATE_LIMITED').message).toMatch(/signups-per-address/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await t.count('accounts')).toBe(3);
  });

  it(`on ${ENGINE}, ${ENGINE === 'postgres' ? 'warns once at start that each instance counts alone' : 'counts in the process without a warning (one process owns the file)'}`, async ({
    makeApp,
  }) => {
    const log = logLines();
    await makeApp({ LOG_LEVEL: 'info' }, log);
    expect(log.matching('set REDIS_URL to share them')).toHaveLength(ENGINE === 'postgres' ? 1 : 0);
  });
});
