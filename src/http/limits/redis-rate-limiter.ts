import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { RATE_WINDOW_MS } from './rate-limiter.ts';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.ts';

/**
 * One atomic step on the bucket's counter: add the cost; the first add of a window sets its
 * expiry; if that went over the limit, take it back (all or none). Returns allowed (1/0), the
 * count after, and the milliseconds left in the window.
 */
const TAKE = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
local ttl = redis.call('PTTL', KEYS[1])
if count > tonumber(ARGV[2]) then
  count = redis.call('DECRBY', KEYS[1], ARGV[1])
  return {0, count, ttl}
end
return {1, count, ttl}
`;

/** How long a starting server waits for Redis before it serves uncounted. */
const CONNECT_WAIT_MS = 2_000;

interface TakeCommand {
  petstoreTake(key: string, cost: number, limit: number, windowMs: number): Promise<[number, number, number]>;
}

export interface RedisRateLimiterOptions {
  url: string;
  /** Keys are `<prefix>rl:<bucket>`, so several deployments can share a Redis. */
  keyPrefix: string;
  log: FastifyBaseLogger;
}

/**
 * Budgets shared by every instance through Redis (as @fastify/rate-limit's Redis store does:
 * an atomic increment with an expiry). When Redis cannot answer within 250 ms, the request is
 * let through uncounted rather than failed: rate limiting is protection, not a dependency a
 * request should die of. One warning when counting stops, one line when it resumes; the
 * client reconnects by itself.
 */
export async function createRedisRateLimiter({ url, keyPrefix, log }: RedisRateLimiterOptions): Promise<RateLimiter> {
  const redis = new Redis(url, {
    keyPrefix,
    // Fail at once while disconnected instead of queueing requests behind a dead connection.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    connectTimeout: CONNECT_WAIT_MS,
  }) as Redis & TakeCommand;
  redis.defineCommand('petstoreTake', { numberOfKeys: 1, lua: TAKE });
  redis.on('error', () => undefined);
  let failing = false;
  const warnOff = (error: unknown) => {
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

  const uncounted = (policy: string, limit: number): RateLimitDecision => ({
    allowed: true,
    policy,
    limit,
    remaining: limit,
    resetSeconds: RATE_WINDOW_MS / 1000,
    uncounted: true,
  });

  return {
    async take(bucket, policy, limit, cost = 1) {
      try {
        const [allowed, count, ttl] = await redis.petstoreTake(`rl:${bucket}`, cost, limit, RATE_WINDOW_MS);
        if (failing) {
          failing = false;
          log.info('rate limiting resumed: Redis answers again');
        }
        return {
          allowed: allowed === 1,
          policy,
          limit,
          remaining: Math.max(0, limit - count),
          resetSeconds: Math.max(1, Math.ceil(ttl / 1000)),
        };
      } catch (error) {
        if (!failing) {
          failing = true;
          log.warn(
            { err: error instanceof Error ? { message: error.message } : String(error) },
            'rate limiting is off: Redis does not answer; requests are let through uncounted until it does',
          );
        }
        return uncounted(policy, limit);
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
