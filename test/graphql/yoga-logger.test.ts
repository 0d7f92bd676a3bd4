import { GraphQLError } from 'graphql';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/index.ts';
import { yogaLogger } from '../../src/graphql/yoga-logger.ts';

/** What Yoga's error log becomes on the app's logger: each line's level name and the error's message. */
function logged(error: unknown): { level: string; message: string | undefined }[] {
  const lines: string[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  yogaLogger(log).error(error);
  return lines.map((line) => {
    const { level, err } = JSON.parse(line) as { level: number; err?: { message?: string } };
    return { level: pino.levels.labels[level] ?? String(level), message: err?.message };
  });
}

describe("Yoga's error log on the app's logger", () => {
  it('logs an unexpected error raised outside execution (a plugin hook) at error level, once', () => {
    expect(logged(new TypeError('hook broke'))).toEqual([{ level: 'error', message: 'hook broke' }]);
    expect(logged(AppError.worded('INTERNAL_ERROR', 'failed'))).toEqual([{ level: 'error', message: 'failed' }]);
  });

  it("keeps at debug what the access line's status already tells, and what useLogUnexpectedErrors logs with its request id", () => {
    const inResolver = new GraphQLError('disk on fire', { path: ['pets'], originalError: new Error('disk on fire') });
    expect(logged(inResolver)).toEqual([{ level: 'debug', message: 'disk on fire' }]);
    expect(logged(AppError.worded('VALIDATION_FAILED', 'bad'))).toEqual([{ level: 'debug', message: 'bad' }]);
    expect(logged(new GraphQLError('Syntax Error: Unexpected Name "x".'))).toEqual([
      { level: 'debug', message: 'Syntax Error: Unexpected Name "x".' },
    ]);
  });
});
