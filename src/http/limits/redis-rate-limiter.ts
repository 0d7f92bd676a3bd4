import type { FastifyBaseLogger } from 'fastify';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimiterMemory } from 'rate-limiter-flexible';
import { requestPathRedis } from '../redis-client.ts';
import { guardRedis } from '../redis-guard.ts';
import { createRateLimiter, memoryLimiter, RATE_WINDOW_MS } from './rate-limiter.ts';
import type { RateLimiter } from './rate-limiter.ts';

/** How long a starting server waits for Redis before it serves uncounted. */
const CONNECT_WAIT_MS = 2_000;

export interface RedisRateLimiterOptions {
  url: string;
  /** Keys are `<prefix>rl:<policy>:<bucket>`, so several deployments can share a Redis. */
  keyPrefix: string;
  log: FastifyBaseLogger;
}

/**
 * Budgets shared by every instance through Redis (rate-limiter-flexible's atomic increment
 * with an expiry). When Redis cannot answer within 250 ms, a request is let through uncounted
 * rather than failed: rate limiting is protection, not a dependency a request should die of.
 * A fail-closed budget (sign-up's) is counted by this process meanwhile: the library's
 * insurance limiter. A Redis that hangs is found by the guard (redis-guard.ts) within a second,
 * and until it answers a ping again nothing waits on it: budgets are uncounted (fail-closed
 * ones counted here) at once. One warning when counting stops, one line when it resumes; the
 * client reconnects by itself.
 */
export async function createRedisRateLimiter({ url, keyPrefix, log }: RedisRateLimiterOptions): Promise<RateLimiter> {
  // Give up on an answer after 250 ms, judged by Redis: this process's own slowness never counts.
  const redis = requestPathRedis(url, { keyPrefix, answerWithinMs: 250, connectTimeoutMs: CONNECT_WAIT_MS });
  let failing = false;
  const warnOff = (error: unknown) => {
    guard.failed(error);
    if (failing) return;
    failing = true;
    const reason = error instanceof Error ? error.message : String(error);
    log.warn({ err: { message: reason } }, 'rate limiting is off: Redis does not answer; requests are let through uncounted until it does');
  };
  const resumed = () => {
    if (!failing) return;
    failing = false;
    log.info('rate limiting resumed: Redis answers again');
  };
  const guard = guardRedis(redis, { onDown: warnOff, onUp: resumed });
  // Start counting from the first request when Redis is there; start anyway when it is not.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      warnOff(new Error(`no connection to Redis within ${CONNECT_WAIT_MS} ms`));
      resolve();
    }, CONNECT_WAIT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });

  // A fail-closed budget's count in this process: the insurance while a call to Redis fails, and
  // the whole count while Redis is away; one limiter per policy, so the two are one count.
  const insurance = new Map<string, RateLimiterMemory>();
  const insuranceOf = (policy: string, limit: number) => {
    let local = insurance.get(policy);
    if (!local) insurance.set(policy, (local = memoryLimiter(policy, limit)));
    return local;
  };
  const shared = createRateLimiter(
    (policy, limit, failClosed) =>
      new RateLimiterRedis({
        storeClient: redis,
        points: limit,
        duration: RATE_WINDOW_MS / 1000,
        keyPrefix: `rl:${policy}`,
        rejectIfRedisNotReady: true,
        insuranceLimiter: failClosed ? insuranceOf(policy, limit) : undefined,
      }),
    warnOff,
    resumed,
  );
  const local = createRateLimiter((policy, limit) => insuranceOf(policy, limit));
  return {
    take(bucket, policy, limit, options = {}) {
      if (guard.usable()) return shared.take(bucket, policy, limit, options);
      if (options.failClosed) return local.take(bucket, policy, limit, options);
      return Promise.resolve({ allowed: true, policy, limit, remaining: limit, resetSeconds: RATE_WINDOW_MS / 1000, uncounted: true });
    },
    open: () => !guard.usable(),
    async close() {
      guard.close();
      redis.disconnect();
    },
  };
}
