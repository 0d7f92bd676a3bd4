import { boundedLru } from './bounded-lru.ts';
import type { MaybePromise } from '../services/maybe-promise.ts';

/** An answer as it was sent: its media type and its text. */
export interface StoredAnswer {
  type: string;
  body: string;
}

/** Where answers are kept by key: this process's memory, or Redis shared by every instance. */
export interface ResponseStore {
  get(key: string): MaybePromise<StoredAnswer | undefined>;
  /** Keeps `answer` as part of `accountId`'s share (Redis bounds each account's; this process bounds them all). */
  set(key: string, answer: StoredAnswer, accountId: number): MaybePromise<void>;
  close(): Promise<void>;
}

interface Held extends StoredAnswer {
  expires: number;
}

/** Answers kept in this process for `ttlMs`, at most `maxBytes` of text in all, the least recently used out first. */
export function memoryResponseStore({
  ttlMs,
  maxBytes,
  now = Date.now,
}: {
  ttlMs: number;
  maxBytes: number;
  /** The clock (a test's own). */
  now?: () => number;
}): ResponseStore {
  const held = boundedLru<Held>(maxBytes);
  return {
    get(key) {
      const entry = held.get(key);
      if (entry === undefined || entry.expires > now()) return entry;
      held.delete(key);
      return undefined;
    },
    set(key, { type, body }) {
      // Two bytes a character: what a JavaScript string of this length may hold.
      held.set(key, { type, body, expires: now() + ttlMs }, 2 * (key.length + type.length + body.length));
    },
    close: async () => held.clear(),
  };
}
