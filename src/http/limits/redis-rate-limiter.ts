import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
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
 * insurance limiter. One warning when counting stops, one line when it resumes; the client
 * reconnects by itself.
 */
export async function createRedisRateLimiter({ url, keyPrefix, log }: RedisRateLimiterOptions): Promise<RateLimiter> {
  const redis = new Redis(url, {
    keyPrefix,
    // Fail at once while disconnected instead of queueing requests behind a dead connection.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    connectTimeout: CONNECT_WAIT_MS,
  });
  redis.on('error', () => undefined);
  let failing = false;
  const warnOff = (error: unknown) => {
    if (failing) return;
    failing = true;
    const reason = error instanceof Error ? error.message : String(error);
    log.warn({ err: { message: reason } }, 'rate limiting is off: Redis does not answer; requests are let through uncounted until it does');
  };
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

  const limiter = createRateLimiter(
    (policy, limit, failClosed) =>
      new RateLimiterRedis({
        storeClient: redis,
        points: limit,
        duration: RATE_WINDOW_MS / 1000,
        keyPrefix: `rl:${policy}`,
        rejectIfRedisNotReady: true,
        insuranceLimiter: failClosed ? memoryLimiter(policy, limit) : undefined,
      }),
    warnOff,
    () => {
      if (!failing) return;
      failing = false;
      log.info('rate limiting resumed: Redis answers again');
    },
  );
  return {
    take: limiter.take,
    async close() {
      redis.disconnect();
    },
  };
}
