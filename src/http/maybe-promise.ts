/** A value now, or later: what a cache hit or an in-memory count returns without a promise. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `use(value)` now when the value is here, or once it arrives. The hot paths (a cached key, an
 * in-memory budget) stay free of promises. Yoga's `handleMaybePromise` serves the same idea, but
 * wraps every call in fake promise objects, and this runs on every request's key and budget.
 */
export function whenReady<T, R>(value: MaybePromise<T>, use: (value: T) => R): MaybePromise<R> {
  return value instanceof Promise ? value.then(use) : use(value);
}
