import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/load-config.ts';
import { redisResponseStore } from './redis-response-store.ts';
import { memoryResponseStore } from './response-store.ts';
import type { ResponseStore } from './response-store.ts';

/** Redis, shared by every instance, when REDIS_URL is set; this process's memory otherwise; null when RESPONSE_CACHE=false. */
export function openResponseStore({ responseCache, redis }: Config, log: FastifyBaseLogger): ResponseStore | null {
  if (!responseCache.enabled) return null;
  if (redis) return redisResponseStore({ ...redis, ...responseCache, log });
  return memoryResponseStore(responseCache);
}
