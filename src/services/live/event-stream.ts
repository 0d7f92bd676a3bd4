import { AppError } from '../../errors/index.ts';

/** Events a subscriber may fall behind by before its stream is ended (it can subscribe again). */
const MAX_BEHIND = 1_000;
const FELL_BEHIND = AppError.of('SUBSCRIBER_TOO_SLOW', 'graphqlFellBehind', { events: MAX_BEHIND });

/**
 * A stream of events for one subscriber: the feed pushes, GraphQL pulls. Ending it (the feed
 * closing, the last event, the client going away through `return`) runs `onEnd` once. A
 * stream stopped for a reason yields that reason (an AppError) as its last item, after the
 * events already queued: the subscription answers it as a final error event.
 */
export class EventStream<T> implements AsyncIterableIterator<T | AppError> {
  private readonly queue: (T | AppError)[] = [];
  private waiting: ((result: IteratorResult<T | AppError>) => void) | null = null;
  private ended = false;

  constructor(private readonly onEnd: () => void) {}

  get open(): boolean {
    return !this.ended;
  }

  push(value: T): void {
    if (this.ended) return;
    if (this.queue.length < MAX_BEHIND) this.deliver(value);
    else this.stop(FELL_BEHIND);
  }

  /** No more events: the queued ones are still delivered, then the stream completes. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd();
    this.waiting?.({ done: true, value: undefined });
    this.waiting = null;
  }

  /** As `end`, with `reason` delivered as the last item. */
  stop(reason: AppError): void {
    if (this.ended) return;
    this.deliver(reason);
    this.end();
  }

  next(): Promise<IteratorResult<T | AppError>> {
    if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.queue.shift() as T | AppError });
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T | AppError>> {
    this.queue.length = 0;
    this.end();
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private deliver(value: T | AppError): void {
    if (this.waiting) {
      this.waiting({ done: false, value });
      this.waiting = null;
    } else {
      this.queue.push(value);
    }
  }
}
