import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors/index.ts';
import { decodeCursor, encodeCursor } from '../../../src/services/pagination/cursor.ts';

describe('cursors', () => {
  it('round-trip the last id of a list, opaque to clients', () => {
    const cursor = encodeCursor('pets', 42);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('42');
    expect(decodeCursor('pets', cursor)).toBe(42);
    expect(decodeCursor('pets', encodeCursor('pets', Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([
    ['another list’s cursor', encodeCursor('orders', 5)],
    ['not base64url', 'not a cursor!'],
    ['padding added', `${encodeCursor('pets', 5)}=`],
    ['a zero id', Buffer.from('pets:0').toString('base64url')],
    ['a leading zero', Buffer.from('pets:05').toString('base64url')],
    ['an unsafe id', Buffer.from('pets:9007199254740992').toString('base64url')],
    ['empty', ''],
  ])('refuse %s with INVALID_CURSOR', (_label, cursor) => {
    const error = (() => {
      try {
        decodeCursor('pets', cursor);
        return null;
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('INVALID_CURSOR');
  });
});
