import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { MaybePromise } from '../maybe-promise.ts';

/** What a caller sees of its quota: the IETF draft's RateLimit-Policy / RateLimit fields and, when refused, Retry-After. */
export interface RateLimitDecision {
  allowed: boolean;
  policy: string;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** The count could not be taken (shared store unreachable): allowed, and no headers claim a count. */
  uncounted?: boolean;
}

/** Every budget is per minute: the window the RateLimit-Policy header announces (w=60). */
export const RATE_WINDOW_MS = 60_000;

export interface TakeOptions {
  /** Units taken at once, or none when fewer are left. */
  cost?: number;
  /** A security limit: when the shared store cannot count, this process counts instead of letting the request through. */
  failClosed?: boolean;
}

export interface RateLimiter {
  /** The decision: now when this process counts (in memory), a promise when a shared store does. */
  take(bucket: string, policy: string, limit: number, options?: TakeOptions): MaybePromise<RateLimitDecision>;
  /**
   * Whether budgets are open now: their shared store does not answer, so requests go through
   * uncounted (fail-closed ones counted by this process). Always false where this process counts.
   */
  open(): boolean;
  close(): Promise<void>;
}

/** How a store's limiter is made for one policy (points = the policy's limit, one fixed window). */
export type MakeStoreLimiter = (policy: string, limit: number, failClosed: boolean) => RateLimiterAbstract;

/** A store that could not answer: the request goes through uncounted (rate limiting is protection, not a dependency). */
export type OnStoreError = (error: unknown) => void;

export const memoryLimiter = (policy: string, limit: number) =>
  new RateLimiterMemory({ points: limit, duration: RATE_WINDOW_MS / 1000, keyPrefix: policy });

/**
 * Fixed one-minute windows per bucket, counted by rate-limiter-flexible: in this process by
 * default, or in a shared store (redis-rate-limiter.ts). This file keeps only what the library
 * leaves to its caller: a refused multi-unit take gives its units back (all or none), and a
 * store's failure becomes an uncounted decision.
 */
export function createRateLimiter(
  makeLimiter: MakeStoreLimiter = memoryLimiter,
  onStoreError: OnStoreError = () => undefined,
  onStoreAnswer: () => void = () => undefined,
): RateLimiter {
  // A policy has one limit and one way to fail, from the configuration: its limiter is made on first use.
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterOf = (policy: string, limit: number, failClosed: boolean) => {
    let limiter = limiters.get(policy);
    if (!limiter) limiters.set(policy, (limiter = makeLimiter(policy, limit, failClosed)));
    return limiter;
  };
  const decision = (res: RateLimiterRes, allowed: boolean, policy: string, limit: number, cost: number): RateLimitDecision => ({
    allowed,
    policy,
    limit,
    remaining: Math.max(0, limit - (allowed ? res.consumedPoints : res.consumedPoints - cost)),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  });
  return {
    async take(bucket, policy, limit, { cost = 1, failClosed = false } = {}) {
      const limiter = limiterOf(policy, limit, failClosed);
      // A fail-closed budget answers from this process while the store is away: not a sign it is back.
      const answered = failClosed ? () => undefined : onStoreAnswer;
      try {
        const res = await limiter.consume(bucket, cost);
        answered();
        return decision(res, true, policy, limit, cost);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) {
          onStoreError(refusal);
          return { allowed: true, policy, limit, remaining: limit, resetSeconds: RATE_WINDOW_MS / 1000, uncounted: true };
        }
        answered();
        // The library counts a refused take; a smaller one must still fit what was left. (One
        // unit refused leaves nothing that fits anyway: no second round trip for it.)
        if (cost > 1 && refusal.consumedPoints - cost < limit) await limiter.reward(bucket, cost).catch(onStoreError);
        return decision(refusal, false, policy, limit, cost);
      }
    },
    open: () => false,
    async close() {},
  };
}

/** One bucket's window: units taken in it (refused takes included, as the shared store counts them), and when it ends. */
interface Window {
  taken: number;
  endsAt: number;
}

/**
 * The same fixed one-minute windows, counted in this process without a promise: a request's
 * budget is a map lookup and an addition. Windows that have ended are swept once a window, so a
 * flood of distinct buckets (addresses without a key) holds memory for a minute, not for ever.
 */
export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, Window>();
  let sweepAt = now() + RATE_WINDOW_MS;
  const sweep = (at: number) => {
    for (const [key, window] of windows) if (window.endsAt <= at) windows.delete(key);
    sweepAt = at + RATE_WINDOW_MS;
  };
  return {
    take(bucket, policy, limit, { cost = 1 } = {}) {
      const at = now();
      if (at >= sweepAt) sweep(at);
      const key = `${policy}:${bucket}`;
      let window = windows.get(key);
      if (!window || window.endsAt <= at) windows.set(key, (window = { taken: 0, endsAt: at + RATE_WINDOW_MS }));
      const resetSeconds = Math.max(1, Math.ceil((window.endsAt - at) / 1000));
      // All or none: a take that does not fit leaves what was left (a refused unit still counts, as the shared store's does).
      const allowed = window.taken + cost <= limit;
      if (allowed || cost === 1) window.taken += cost;
      return { allowed, policy, limit, remaining: Math.max(0, limit - window.taken), resetSeconds };
    },
    open: () => false,
    async close() {
      windows.clear();
    },
  };
}
