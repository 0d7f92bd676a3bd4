import { Redis } from 'ioredis';
import { answerDeadline } from './redis-deadline.ts';

export interface RequestPathRedisOptions {
  /** Every key this client reads or writes starts with it, so deployments can share a Redis. */
  keyPrefix: string;
  /** A command without an answer after this fails (answerDeadline: judged by Redis, not by this process's own slowness). */
  answerWithinMs: number;
  /** How long a connection attempt may take; ioredis's default (10 s) where unset. */
  connectTimeoutMs?: number;
}

/**
 * A Redis client for what a request asks of Redis on its way (its rate limits, a cached answer,
 * its account's write mark): a command fails at once while disconnected (no offline queue, no
 * retries) and after `answerWithinMs` without an answer, so no request waits on a Redis that is
 * away; a connection's errors are left to the caller's guard (redis-guard.ts) to report, never
 * an unhandled 'error'. The client reconnects by itself.
 */
export function requestPathRedis(url: string, { keyPrefix, answerWithinMs, connectTimeoutMs }: RequestPathRedisOptions): Redis {
  const redis = new Redis(url, {
    keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    ...(connectTimeoutMs === undefined ? {} : { connectTimeout: connectTimeoutMs }),
  });
  answerDeadline(redis, answerWithinMs);
  redis.on('error', () => undefined);
  return redis;
}
