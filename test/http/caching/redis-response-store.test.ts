import { describe, expect, it } from '../../helpers/fixtures.ts';
import { graphql } from '../../helpers/graphql.ts';
import { startPrivateRedis } from '../../helpers/private-redis.ts';
import { expectErrorBody } from '../../helpers/test-app.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { TEST_REDIS_URL } from '../../helpers/test-redis.ts';

const KIB = 1024;
const PAGE = 'query($n: Int, $salt: String) { pets(first: $n, after: $salt) { nodes { id name } } }';

describe.runIf(TEST_REDIS_URL !== '')('the GraphQL response cache in Redis', { timeout: 120_000 }, () => {
  it('stays within its own bounds, so Redis never evicts a rate-limit counter to make room for answers', async ({ makeApp }) => {
    // As docs once recommended: maxmemory and volatile-lru, where answers and counters both expire.
    const redis = await startPrivateRedis(['--maxmemory', '4mb', '--maxmemory-policy', 'volatile-lru']);
    try {
      const t = await makeApp({
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: 'bounded:',
        RESPONSE_CACHE_MAX_BYTES: String(2048 * KIB),
        RESPONSE_CACHE_MAX_ACCOUNT_BYTES: String(512 * KIB),
        RATE_LIMIT_PER_MINUTE: '0',
        SIGNUP: 'open',
        METRICS_PORT: '0',
      });
      const signUp = (account: string) =>
        t.app.inject({ method: 'POST', url: '/signup', payload: { account }, remoteAddress: '198.51.100.9' });
      expect((await signUp('first')).statusCode).toBe(201);
      const others = await Promise.all(
        ['second-tenant', 'third-tenant', 'fourth-tenant', 'fifth-tenant'].map((account) => signUpElsewhere(t, account)),
      );

      // Answers of about 13 KiB: 100 pets with 100-character names.
      for (let i = 0; i < 100; i++)
        await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `${i}`.padEnd(100, 'x'), categoryId: 1 } });
      // Five accounts, each asking 100 distinct pages (the variables differ, so each is kept on its own): 6.5 MB of answers.
      const cursor = Buffer.from('pets:1').toString('base64url');
      for (const auth of [t.auth, ...others]) {
        for (let i = 0; i < 100; i++) {
          const { res } = await graphql(t, PAGE, { n: 100, salt: i % 2 ? cursor : null, i }, auth);
          expect(res.statusCode).toBe(200);
        }
      }
      const held = await waitForKept(t);
      expect(held).toBeGreaterThan(512 * KIB);
      expect(held).toBeLessThanOrEqual(2048 * KIB);
      const info = await redis.client.info('stats');
      expect(/evicted_keys:(\d+)/.exec(info)?.[1]).toBe('0');
      for (const account of (await redis.client.keys('bounded:rc:account-bytes:*')).sort()) {
        expect(Number(await redis.client.get(account)), account).toBeLessThanOrEqual(512 * KIB);
      }

      // The sign-up budget (2 a minute per address) counted on: one left, then refused.
      expect((await signUp('second')).statusCode).toBe(201);
      expectErrorBody(await signUp('third'), 'RATE_LIMITED');
    } finally {
      await redis.stop();
    }
  });
});

/** Another account's key, made through sign-up from an address of its own. */
async function signUpElsewhere(t: TestApp, account: string): Promise<Record<string, string>> {
  const res = await t.app.inject({ method: 'POST', url: '/signup', payload: { account }, remoteAddress: `203.0.113.${account.length}` });
  expect(res.statusCode).toBe(201);
  return { authorization: `Bearer ${res.json().apiKey.key}` };
}

/** What the store counts as held, once the last answers (kept without waiting) have landed. */
async function waitForKept(t: TestApp): Promise<number> {
  let last = -1;
  for (let tries = 0; tries < 50; tries++) {
    const held = Number(/^petstore_response_cache_bytes (\d+)$/m.exec(await t.scrape())?.[1]);
    if (held === last) return held;
    last = held;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return last;
}
