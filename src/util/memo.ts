/**
 * `make(key)` once per key, then kept: for what is worked out from a small, closed set of keys
 * (statement texts, routes, label sets, Accept values). The first `limit` keys are kept; past
 * them a key is worked out each time it comes, so a caller's unbounded variety costs nothing kept.
 */
export function memo<K, V>(make: (key: K) => V, limit = 10_000): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      if (made.size < limit) made.set(key, value);
    }
    return value;
  };
}
