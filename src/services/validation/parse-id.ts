import { AppError } from '../../errors/index.ts';
import { describeIssue, fieldNaming } from './describe-issue.ts';
import type { FieldNaming } from './describe-issue.ts';
import { MAX_SAFE_ID } from './id-schema.ts';

/**
 * A resource id: a number (REST, already checked by its route schema) or the decimal text a
 * GraphQL ID carries. Plain decimal digits, 1 to 2^53−1, else VALIDATION_FAILED in the same
 * words REST's schema check uses.
 */
export function parseId(value: number | string, field: string, naming: FieldNaming = fieldNaming): number {
  const id = typeof value === 'number' ? value : /^(0|[1-9][0-9]*)$/.test(value) ? Number(value) : Number.NaN;
  const fail = (keyword: string, params: Record<string, unknown> = {}) =>
    AppError.worded('VALIDATION_FAILED', describeIssue({ keyword, params, instancePath: `/${field}`, schemaPath: '' }, naming));
  if (!Number.isInteger(id)) throw fail('decimal');
  if (id < 1) throw fail('minimum', { limit: 1 });
  if (id > MAX_SAFE_ID) throw fail('maximum', { limit: MAX_SAFE_ID });
  return id;
}
