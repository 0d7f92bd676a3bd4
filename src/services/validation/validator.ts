import { Ajv } from 'ajv';
import type { AnySchema } from 'ajv';
import { AppError } from '../../errors/index.ts';
import { isDateTime } from './date-time.ts';
import { describeIssue } from './describe-issue.ts';
import type { FieldNames, InputPart } from './describe-issue.ts';

/**
 * Strict by design: no type coercion and no silent removal of unknown fields,
 * so "5" is not a categoryId and a client-sent `id` is an error, not ignored.
 */
export const strictAjv = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false });
// The one date-time rule (RFC 3339, years 0000-9999 in UTC), for REST's schemas and the services alike.
strictAjv.addFormat('date-time', isDateTime);

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * The path of the first string that is not well-formed Unicode (a lone surrogate, as JSON's
 * `"\ud800"` makes): such text cannot be stored as UTF-8 and would read back as U+FFFD.
 */
function malformedText(value: unknown, path = ''): string | null {
  // In a `u` regex a surrogate pair is one code point, so only a lone surrogate matches.
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = malformedText(item, `${path}/${key}`);
    if (found !== null) return found;
  }
  return null;
}

/** Compiles a schema into a function that returns the typed value or throws VALIDATION_FAILED. */
export function createValidator<T>(schema: AnySchema, part: InputPart): (value: unknown, names?: FieldNames) => T {
  const validate = strictAjv.compile<T>(schema);
  return (value, names) => {
    if (validate(value)) {
      const path = malformedText(value);
      if (path === null) return value as T;
      throw new AppError(
        'VALIDATION_FAILED',
        describeIssue(part, { keyword: 'wellFormed', instancePath: path, schemaPath: '', params: {} }, names),
      );
    }
    const [issue] = validate.errors ?? [];
    throw new AppError('VALIDATION_FAILED', issue ? describeIssue(part, issue, names) : undefined);
  };
}

/** One validator per input part, compiled on first use: a list query reads "Query parameter" on REST and "Argument" on GraphQL. */
export function createPartValidator<T>(schema: AnySchema): (part: InputPart) => (value: unknown, names?: FieldNames) => T {
  const byPart = new Map<InputPart, (value: unknown, names?: FieldNames) => T>();
  return (part) => {
    let validate = byPart.get(part);
    if (!validate) byPart.set(part, (validate = createValidator<T>(schema, part)));
    return validate;
  };
}
