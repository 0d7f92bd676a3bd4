import { describe, expect, it } from 'vitest';
import { createRateLimiter, RATE_WINDOW_MS } from '../../../src/http/limits/rate-limiter.ts';

describe('the in-memory rate limiter', () => {
  it('allows `limit` units per bucket per window, then refuses until the window resets', () => {
    const limiter = createRateLimiter();
    const t0 = 1_000_000;
    const decisions = [1, 2, 3, 4].map(() => limiter.take('key:1', 'per-key', 3, 1, t0));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[3]?.resetSeconds).toBe(RATE_WINDOW_MS / 1000);
    expect(limiter.take('key:1', 'per-key', 3, 1, t0 + RATE_WINDOW_MS - 1).allowed).toBe(false);
    expect(limiter.take('key:1', 'per-key', 3, 1, t0 + RATE_WINDOW_MS).allowed).toBe(true);
  });

  it('keeps buckets apart', () => {
    const limiter = createRateLimiter();
    expect(limiter.take('a', 'p', 1, 1, 0).allowed).toBe(true);
    expect(limiter.take('b', 'p', 1, 1, 0).allowed).toBe(true);
    expect(limiter.take('a', 'p', 1, 1, 0).allowed).toBe(false);
  });

  it('takes a cost all or nothing', () => {
    const limiter = createRateLimiter();
    expect(limiter.take('m', 'p', 5, 3, 0)).toMatchObject({ allowed: true, remaining: 2 });
    expect(limiter.take('m', 'p', 5, 3, 0)).toMatchObject({ allowed: false, remaining: 2 });
    expect(limiter.take('m', 'p', 5, 2, 0)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('counts seconds to the reset, at least one', () => {
    const limiter = createRateLimiter();
    limiter.take('s', 'p', 1, 1, 0);
    expect(limiter.take('s', 'p', 1, 1, RATE_WINDOW_MS - 1500).resetSeconds).toBe(2);
    expect(limiter.take('s', 'p', 1, 1, RATE_WINDOW_MS - 1).resetSeconds).toBe(1);
  });
});
