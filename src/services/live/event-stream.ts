/** Events a subscriber may fall behind by before its stream is ended (it can subscribe again). */
const MAX_BEHIND = 1_000;

/**
 * A stream of events for one subscriber: the feed pushes, GraphQL pulls. Ending it (the feed
 * closing, the last event, the client going away through `return`) runs `onEnd` once.
 */
export class EventStream<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private ended = false;

  constructor(private readonly onEnd: () => void) {}

  get open(): boolean {
    return !this.ended;
  }

  push(value: T): void {
    if (this.ended) return;
    if (this.waiting) {
      this.waiting({ done: false, value });
      this.waiting = null;
    } else if (this.queue.length < MAX_BEHIND) {
      this.queue.push(value);
    } else {
      this.end();
    }
  }

  /** No more events: the queued ones are still delivered, then the stream completes. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd();
    this.waiting?.({ done: true, value: undefined });
    this.waiting = null;
  }

  next(): Promise<IteratorResult<T>> {
    const value = this.queue.shift();
    if (value !== undefined) return Promise.resolve({ done: false, value });
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.queue.length = 0;
    this.end();
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
