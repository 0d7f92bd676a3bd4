/** Values by key, at most `maxBytes` of them in all (by the size each was given), the least recently used out first. */
export interface BoundedLru<V> {
  get(key: string): V | undefined;
  /** Keeps `value` as `bytes` large; one larger than the whole bound is not kept. */
  set(key: string, value: V, bytes: number): void;
  delete(key: string): void;
  /** What the kept values add up to. */
  readonly bytes: number;
  clear(): void;
}

interface Held<V> {
  value: V;
  bytes: number;
}

/**
 * `onDrop` hears of every value that leaves, whether pushed out, replaced or deleted.
 * A Map keeps insertion order, so its first entry is the least recently used when every hit
 * moves its entry to the end: eviction takes from the front until the total fits.
 */
export function boundedLru<V>(maxBytes: number, onDrop?: (key: string, value: V) => void): BoundedLru<V> {
  const held = new Map<string, Held<V>>();
  let bytes = 0;
  const drop = (key: string, entry: Held<V>) => {
    held.delete(key);
    bytes -= entry.bytes;
    onDrop?.(key, entry.value);
  };
  return {
    get(key) {
      const entry = held.get(key);
      if (entry === undefined) return undefined;
      held.delete(key);
      held.set(key, entry);
      return entry.value;
    },
    set(key, value, size) {
      const previous = held.get(key);
      if (previous) drop(key, previous);
      if (size > maxBytes) return;
      held.set(key, { value, bytes: size });
      bytes += size;
      for (const [oldest, old] of held) {
        if (bytes <= maxBytes) break;
        drop(oldest, old);
      }
    },
    delete(key) {
      const entry = held.get(key);
      if (entry) drop(key, entry);
    },
    get bytes() {
      return bytes;
    },
    clear() {
      for (const [key, entry] of held) drop(key, entry);
    },
  };
}
