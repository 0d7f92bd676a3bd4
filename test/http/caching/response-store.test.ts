import { describe, expect, it } from 'vitest';
import { memoryResponseStore } from '../../../src/http/caching/response-store.ts';

const answer = (body: string) => ({ type: 'application/json', body });

describe('the in-process response store', () => {
  it('forgets an answer once its time to live has passed', () => {
    let clock = 0;
    const store = memoryResponseStore({ ttlMs: 60_000, maxBytes: 1_000_000, maxAccountBytes: 1_000_000, now: () => clock });
    store.set('k', answer('{"data":1}'), 1);
    clock = 59_999;
    expect(store.get('k')).toEqual(expect.objectContaining(answer('{"data":1}')));
    clock = 60_000;
    expect(store.get('k')).toBeUndefined();
  });

  it('holds at most maxBytes, letting the least recently used answers go first', () => {
    const body = 'x'.repeat(100);
    // Each entry: 2 bytes a character of key, type and body, about 240 bytes: three fit in 800.
    const store = memoryResponseStore({ ttlMs: 60_000, maxBytes: 800, maxAccountBytes: 800 });
    for (const key of ['a', 'b', 'c']) store.set(key, answer(body), 1);
    expect(store.get('a')).toBeDefined();
    store.set('d', answer(body), 2);
    expect(store.get('b')).toBeUndefined();
    for (const key of ['a', 'c', 'd']) expect(store.get(key)).toBeDefined();
    expect(store.bytes()).toBeLessThanOrEqual(800);
  });

  it("holds at most maxAccountBytes of one account's answers, its oldest out first, and leaves other accounts' alone", () => {
    const body = 'x'.repeat(100);
    const store = memoryResponseStore({ ttlMs: 60_000, maxBytes: 10_000, maxAccountBytes: 500 });
    store.set('theirs', answer(body), 2);
    for (const key of ['a', 'b', 'c', 'd']) store.set(key, answer(body), 1);
    expect(['a', 'b'].map((key) => store.get(key))).toEqual([undefined, undefined]);
    for (const key of ['c', 'd', 'theirs']) expect(store.get(key)).toBeDefined();
  });
});
