import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/load-config.ts';
import { boundedLru } from '../../util/bounded-lru.ts';
import { redisResponseStore } from './redis-response-store.ts';
import type { MaybePromise } from '../maybe-promise.ts';

/** An answer as it was sent: its media type, its text, and a REST page's Link header to the next. */
export interface StoredAnswer {
  type: string;
  body: string;
  link?: string;
}

/** Where answers are kept by key: this process's memory, or Redis shared by every instance. */
export interface ResponseStore {
  get(key: string): MaybePromise<StoredAnswer | undefined>;
  /** Keeps `answer` as part of `accountId`'s share. */
  set(key: string, answer: StoredAnswer, accountId: number): MaybePromise<void>;
  /** What the kept answers hold now (in Redis: every instance's together), as the store counts them against its bound. */
  bytes(): MaybePromise<number>;
  close(): Promise<void>;
}

export interface StoreBounds {
  ttlMs: number;
  /** The most the store holds in all. */
  maxBytes: number;
  /** The most one account's answers hold: the oldest it kept go first. */
  maxAccountBytes: number;
}

interface Held extends StoredAnswer {
  expires: number;
  accountId: number;
  bytes: number;
}

/**
 * Answers kept in this process for `ttlMs`, at most `maxBytes` of text in all (the least recently
 * used out first) and `maxAccountBytes` per account (its oldest out first).
 */
export function memoryResponseStore({
  ttlMs,
  maxBytes,
  maxAccountBytes,
  now = Date.now,
}: StoreBounds & {
  /** The clock (a test's own). */
  now?: () => number;
}): ResponseStore {
  // Each account's keys in the order they were kept, and what they hold.
  const accounts = new Map<number, { keys: Set<string>; bytes: number }>();
  const held = boundedLru<Held>(maxBytes, (key, entry) => {
    const account = accounts.get(entry.accountId);
    if (!account?.keys.delete(key)) return;
    account.bytes -= entry.bytes;
    if (account.keys.size === 0) accounts.delete(entry.accountId);
  });
  return {
    get(key) {
      const entry = held.get(key);
      if (entry === undefined || entry.expires > now()) return entry;
      held.delete(key);
      return undefined;
    },
    set(key, { type, body, link }, accountId) {
      // Two bytes a character: what a JavaScript string of this length may hold.
      const bytes = 2 * (key.length + type.length + body.length + (link?.length ?? 0));
      if (bytes > maxAccountBytes) return;
      held.set(key, { type, body, link, expires: now() + ttlMs, accountId, bytes }, bytes);
      if (held.get(key) === undefined) return;
      let account = accounts.get(accountId);
      if (!account) accounts.set(accountId, (account = { keys: new Set(), bytes: 0 }));
      account.keys.add(key);
      account.bytes += bytes;
      for (const oldest of account.keys) {
        if (account.bytes <= maxAccountBytes) break;
        held.delete(oldest);
      }
    },
    bytes: () => held.bytes,
    close: async () => held.clear(),
  };
}

/** Redis, shared by every instance, when REDIS_URL is set; this process's memory otherwise; null when RESPONSE_CACHE=false. */
export function openResponseStore({ responseCache, redis }: Config, log: FastifyBaseLogger): ResponseStore | null {
  if (!responseCache.enabled) return null;
  if (redis) return redisResponseStore({ ...redis, ...responseCache, log });
  return memoryResponseStore(responseCache);
}
