import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createRateLimiter, memoryRateLimiter, RATE_WINDOW_MS } from '../../../src/http/limits/rate-limiter.ts';
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

describe('the in-process count (memoryRateLimiter: no Redis)', () => {
  it('decides at once, without a promise, with the same windows and words as the shared count', () => {
    let now = 1_000_000;
    const limiter = memoryRateLimiter(() => now);
    const decisions = [0, 1, 2, 3].map(() => limiter.take('key:1', 'per-key', 3));
    for (const decision of decisions) expect(decision).not.toBeInstanceOf(Promise);
    expect(decisions.map((d) => 'allowed' in d && [d.allowed, d.remaining, d.resetSeconds])).toEqual([
      [true, 2, 60],
      [true, 1, 60],
      [true, 0, 60],
      [false, 0, 60],
    ]);
    now += 30_500;
    expect(limiter.take('key:1', 'per-key', 3)).toMatchObject({ allowed: false, resetSeconds: 30 });
    // The window ends a minute after it began: a new one, whole.
    now += 29_500;
    expect(limiter.take('key:1', 'per-key', 3)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });
});

const stores: [string, () => Promise<RateLimiter>][] = [
  ['in memory (the shared store’s library, as Redis’s insurance)', async () => createRateLimiter()],
  ['in memory (this process’s count)', async () => memoryRateLimiter()],
];
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
