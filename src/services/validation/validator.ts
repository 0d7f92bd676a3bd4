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

/** Compiles a schema into a function that returns the typed value or throws VALIDATION_FAILED. */
export function createValidator<T>(schema: AnySchema, part: InputPart): (value: unknown, names?: FieldNames) => T {
  const validate = strictAjv.compile<T>(schema);
  return (value, names) => {
    if (validate(value)) return value as T;
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
