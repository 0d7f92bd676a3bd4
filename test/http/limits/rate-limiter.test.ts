import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createRateLimiter, RATE_WINDOW_MS } from '../../../src/http/limits/rate-limiter.ts';
import type { RateLimiter } from '../../../src/http/limits/rate-limiter.ts';
import { createRedisRateLimiter } from '../../../src/http/limits/redis-rate-limiter.ts';
import { redisEnv, TEST_REDIS_URL } from '../../helpers/test-redis.ts';

describe('the in-memory rate limiter', () => {
  it('allows `limit` units per bucket per window, then refuses, saying when the window resets', async () => {
    const limiter = createRateLimiter();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.take('key:1', 'per-key', 3));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    // Whole seconds, rounded up: the window's full minute just after it began.
    expect(decisions[3]?.resetSeconds).toBe(RATE_WINDOW_MS / 1000);
  });

  it('keeps buckets and policies apart', async () => {
    const limiter = createRateLimiter();
    expect((await limiter.take('a', 'p', 1)).allowed).toBe(true);
    expect((await limiter.take('b', 'p', 1)).allowed).toBe(true);
    expect((await limiter.take('a', 'q', 1)).allowed).toBe(true);
    expect((await limiter.take('a', 'p', 1)).allowed).toBe(false);
  });
});

const stores: [string, () => Promise<RateLimiter>][] = [['in memory', async () => createRateLimiter()]];
if (TEST_REDIS_URL !== '') {
  stores.push([
    'through Redis',
    () => createRedisRateLimiter({ url: TEST_REDIS_URL, keyPrefix: redisEnv().REDIS_KEY_PREFIX, log: pino({ level: 'silent' }) }),
  ]);
}

describe.each(stores)('a rate limiter %s', (_name, make) => {
  it('takes a cost all or nothing: a refused take leaves what was left', async () => {
    const limiter = await make();
    expect(await limiter.take('m', 'p', 5, { cost: 3 })).toMatchObject({ allowed: true, remaining: 2 });
    expect(await limiter.take('m', 'p', 5, { cost: 3 })).toMatchObject({ allowed: false, remaining: 2 });
    expect(await limiter.take('m', 'p', 5, { cost: 2 })).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.take('m', 'p', 5, { cost: 1 })).toMatchObject({ allowed: false, remaining: 0 });
    await limiter.close();
  });
});
