import type { ExecutionResult } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';
import type { Events } from './run-graphql.ts';

/** What a stream's framing reads, one result at a time, whatever the pipeline gave it. */
export interface Results {
  next(): Promise<IteratorResult<ExecutionResult, undefined>>;
  /** Ends the events early (the client went away); nothing for a result that came alone. */
  stop(): Promise<void>;
  /** The result that came alone (refused before it began, or nothing left to send later), or null: events began. */
  alone: ExecutionResult | null;
}

/** A stream's results, as many events (a subscription's, a query's increments) or as the one that came alone. */
export function resultsOf(events: Events): Results {
  if (isAsyncIterable(events)) {
    const iterator = events[Symbol.asyncIterator]();
    return {
      next: () => iterator.next() as Promise<IteratorResult<ExecutionResult, undefined>>,
      stop: async () => {
        await iterator.return?.();
      },
      alone: null,
    };
  }
  let left: ExecutionResult | null = events;
  return {
    next: async () => {
      const value = left;
      left = null;
      return value ? { done: false, value } : { done: true, value: undefined };
    },
    stop: async () => {},
    alone: events,
  };
}
