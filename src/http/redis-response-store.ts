import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { ResponseStore, StoredAnswer } from './response-store.ts';

export interface RedisResponseStoreOptions {
  url: string;
  /** Keys are `<prefix>rc:<key>`, beside the rate limiter's `<prefix>rl:`. */
  keyPrefix: string;
  ttlMs: number;
  log: FastifyBaseLogger;
}

/** How long a command may wait for Redis before the query runs as if nothing were kept. */
const LOOKUP_WAIT_MS = 100;

/**
 * Answers shared by every instance. Redis is a saving, never a dependency: when it does not
 * answer, a lookup is a miss and keeping is skipped; one warning when it stops, one line when
 * it comes back. Redis's own maxmemory (with an LRU policy) bounds the whole store.
 */
export function redisResponseStore({ url, keyPrefix, ttlMs, log }: RedisResponseStoreOptions): ResponseStore {
  // As the rate limiter's client: fail at once while disconnected, and give up on a slow answer.
  const redis = new Redis(url, {
    keyPrefix: `${keyPrefix}rc:`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: LOOKUP_WAIT_MS,
  });
  let failing = false;
  const failed = (error: unknown) => {
    if (!failing) log.warn({ err: error }, 'response cache: Redis is not answering; queries run uncached until it does');
    failing = true;
    return undefined;
  };
  const answered = () => {
    if (failing) log.info('response cache: Redis answers again');
    failing = false;
  };
  redis.on('error', () => undefined);
  return {
    async get(key) {
      try {
        const text = await redis.get(key);
        answered();
        return text === null ? undefined : (JSON.parse(text) as StoredAnswer);
      } catch (error) {
        return failed(error);
      }
    },
    async set(key, answer) {
      try {
        await redis.set(key, JSON.stringify(answer), 'PX', ttlMs);
        answered();
      } catch (error) {
        failed(error);
      }
    },
    close: async () => {
      redis.disconnect();
    },
  };
}
