import type { MaybePromise } from '../services/maybe-promise.ts';

/** An answer as it was sent: its media type and its text. */
export interface StoredAnswer {
  type: string;
  body: string;
}

/** Where answers are kept by key: this process's memory, or Redis shared by every instance. */
export interface ResponseStore {
  get(key: string): MaybePromise<StoredAnswer | undefined>;
  set(key: string, answer: StoredAnswer): MaybePromise<void>;
  close(): Promise<void>;
}

interface Held extends StoredAnswer {
  expires: number;
  bytes: number;
}

/**
 * Answers kept in this process for `ttlMs`, at most `maxBytes` of text in all: the least
 * recently used go first (a Map keeps insertion order; a hit moves its entry to the end).
 */
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
  const held = new Map<string, Held>();
  let bytes = 0;
  const drop = (key: string, entry: Held) => {
    held.delete(key);
    bytes -= entry.bytes;
  };
  return {
    get(key) {
      const entry = held.get(key);
      if (entry === undefined) return undefined;
      held.delete(key);
      if (entry.expires <= now()) {
        bytes -= entry.bytes;
        return undefined;
      }
      held.set(key, entry);
      return entry;
    },
    set(key, { type, body }) {
      const previous = held.get(key);
      if (previous) drop(key, previous);
      // Two bytes a character: what a JavaScript string of this length may hold.
      const entry: Held = { type, body, expires: now() + ttlMs, bytes: 2 * (key.length + type.length + body.length) };
      held.set(key, entry);
      bytes += entry.bytes;
      for (const [oldest, old] of held) {
        if (bytes <= maxBytes) break;
        drop(oldest, old);
      }
    },
    close: async () => held.clear(),
  };
}
