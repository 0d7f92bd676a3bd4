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

export interface RateLimiter {
  /** Takes `cost` units at once, or none when fewer than `cost` are left. A promise where the count lives elsewhere. */
  take(bucket: string, policy: string, limit: number, cost?: number, now?: number): MaybePromise<RateLimitDecision>;
  close(): Promise<void>;
}

/** The in-memory limiter answers at once. */
export interface MemoryRateLimiter extends RateLimiter {
  take(bucket: string, policy: string, limit: number, cost?: number, now?: number): RateLimitDecision;
}

/**
 * Fixed one-minute windows per bucket, in memory: cheap and exact within one process.
 * Several processes behind a balancer each count on their own; REDIS_URL shares the count
 * (redis-rate-limiter.ts).
 */
export function createRateLimiter(): MemoryRateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let takes = 0;
  return {
    take(bucket, policy, limit, cost = 1, now = Date.now()) {
      // Forget finished windows now and then, so idle buckets do not pile up.
      if (++takes % 10_000 === 0) for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
      let window = windows.get(bucket);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + RATE_WINDOW_MS };
        windows.set(bucket, window);
      }
      const allowed = window.count + cost <= limit;
      if (allowed) window.count += cost;
      return {
        allowed,
        policy,
        limit,
        remaining: limit - window.count,
        resetSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
      };
    },
    async close() {
      windows.clear();
    },
  };
}
