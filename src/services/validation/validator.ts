import { Ajv } from 'ajv';
import type { AnySchema } from 'ajv';
import { AppError } from '../../errors/index.ts';
import { describeIssue } from './describe-issue.ts';
import type { FieldNames, InputPart } from './describe-issue.ts';

/**
 * Strict by design: no type coercion and no silent removal of unknown fields,
 * so "5" is not a categoryId and a client-sent `id` is an error, not ignored.
 */
export const strictAjv = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false });

/** Compiles a schema into a function that returns the typed value or throws VALIDATION_FAILED. */
export function createValidator<T>(schema: AnySchema, part: InputPart): (value: unknown, names?: FieldNames) => T {
  const validate = strictAjv.compile<T>(schema);
  return (value, names) => {
    if (validate(value)) return value as T;
    const [issue] = validate.errors ?? [];
    throw new AppError('VALIDATION_FAILED', issue ? describeIssue(part, issue, names) : undefined);
  };
}
