import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../../src/services/messages/outbox.ts';

describe('delivery backoff', () => {
  it('doubles from the base after each failed attempt', () => {
    expect([1, 2, 3, 4, 5].map((attempts) => retryDelay(attempts, 1000))).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it('never waits longer than five minutes', () => {
    expect(retryDelay(30, 1000)).toBe(5 * 60_000);
    expect(retryDelay(3, 1000, 3000)).toBe(3000);
  });
});
