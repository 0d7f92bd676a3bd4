import { describe, expect, it } from 'vitest';
import { compileParamValidator } from '../../src/rest/param-validator.ts';

const validate = compileParamValidator({ properties: { limit: { type: 'integer', minimum: 1 }, status: { type: 'string' } } } as never);

describe('the query and path validator', () => {
  it.each(['1', '20', '9007199254740991'])('takes %s as plain digits and coerces it to a number', (limit) => {
    const data: Record<string, unknown> = { limit };
    expect(validate(data)).toBe(true);
    expect(data.limit).toBe(Number(limit));
  });

  it('leaves the range to the schema: 0 is digits, and below the minimum', () => {
    expect(validate({ limit: '0' })).toBe(false);
    expect((validate as unknown as { errors: { keyword: string }[] }).errors[0]?.keyword).toBe('minimum');
  });

  it.each(['0x10', '1e3', '+1', '-1', '01', '1.0', ' 5', '5 ', '', 'abc'])(
    'refuses %j before any coercion, with the decimal rule',
    (limit) => {
      const data = { limit };
      expect(validate(data)).toBe(false);
      expect((validate as unknown as { errors: { keyword: string; instancePath: string }[] }).errors).toEqual([
        expect.objectContaining({ keyword: 'decimal', instancePath: '/limit' }),
      ]);
      expect(data.limit).toBe(limit);
    },
  );
});
