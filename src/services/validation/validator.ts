import { Ajv } from 'ajv';
import type { AnySchema } from 'ajv';
import { AppError } from '../../errors/index.ts';
import { describeIssue, fieldNaming } from './describe-issue.ts';
import type { FieldNaming } from './describe-issue.ts';
import { addFormats } from './formats.ts';

/**
 * Strict by design: no type coercion and no silent removal of unknown fields,
 * so "5" is not a categoryId and a client-sent `id` is an error, not ignored. A schema may
 * allow several types (an MCP tool's ID argument: a string or an integer) without Ajv's
 * strict-mode warning.
 */
export const strictAjv = addFormats(
  new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false, allowUnionTypes: true }),
);

// In a `u` regex a surrogate pair is one code point, so only a lone surrogate matches.
const NOT_STORABLE = /\p{Surrogate}|\0/u;

/**
 * The path of the first string that cannot be stored as text on every engine: one that is
 * not well-formed Unicode (a lone surrogate, as JSON's `"\ud800"` makes, would read back as
 * U+FFFD) or holds NUL (U+0000), which PostgreSQL text refuses.
 */
function malformedText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return NOT_STORABLE.test(value) ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = malformedText(item, `${path}/${key}`);
    if (found !== null) return found;
  }
  return null;
}

export type Validator<T> = (value: unknown, naming?: FieldNaming) => T;

/** Compiles a schema into a function that returns the typed value or throws VALIDATION_FAILED, naming fields as the caller does. */
export function createValidator<T>(schema: AnySchema): Validator<T> {
  const validate = strictAjv.compile<T>(schema);
  return (value, naming = fieldNaming) => {
    if (validate(value)) {
      const path = malformedText(value);
      if (path === null) return value as T;
      throw AppError.worded(
        'VALIDATION_FAILED',
        describeIssue({ keyword: 'wellFormed', instancePath: path, schemaPath: '', params: {} }, naming),
      );
    }
    const [issue] = validate.errors ?? [];
    throw issue ? AppError.worded('VALIDATION_FAILED', describeIssue(issue, naming)) : new AppError('VALIDATION_FAILED');
  };
}
