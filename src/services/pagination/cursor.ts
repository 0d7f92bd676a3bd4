import { AppError } from '../../errors/index.ts';

// Opaque to clients: base64url of "<kind>:<last id>". The kind keeps a cursor from
// one list from being replayed against another.
export function encodeCursor(kind: string, lastId: number): string {
  return Buffer.from(`${kind}:${lastId}`, 'utf8').toString('base64url');
}

export function decodeCursor(kind: string, cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^([a-z]+):([1-9][0-9]{0,15})$/.exec(text);
  const lastId = match ? Number(match[2]) : Number.NaN;
  if (!match || match[1] !== kind || !Number.isSafeInteger(lastId) || encodeCursor(kind, lastId) !== cursor) {
    throw new AppError('INVALID_CURSOR');
  }
  return lastId;
}
