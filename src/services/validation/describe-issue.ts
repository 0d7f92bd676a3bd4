import type { ErrorObject } from 'ajv';

/** Where a value came from, so a message can say "query parameter 'limit'" or "field 'name'". */
export type InputPart = 'body' | 'querystring' | 'params' | 'input';

const partNoun: Record<InputPart, string> = {
  body: 'Field',
  querystring: 'Query parameter',
  params: 'Path parameter',
  input: 'Argument',
};

const typeNoun: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'a JSON object',
  array: 'an array',
};

/** What a surface calls a field, where it differs from the schema (GraphQL's `first` is the schema's `limit`). */
export type FieldNames = Readonly<Record<string, string>>;

/** How a caller names a list query's fields in its own error messages. */
export interface ListNaming {
  part: InputPart;
  names?: FieldNames;
}

/**
 * One sentence a client can act on, naming the offending field. REST (Fastify's
 * ajv) and the service layer both describe issues here, so their words match.
 */
export function describeIssue(part: InputPart, issue: ErrorObject, names: FieldNames = {}): string {
  const params = issue.params as Record<string, unknown>;
  const name = (key: string) => names[key] ?? key;
  const path = name(issue.instancePath.replace(/^\//, '').replaceAll('/', '.'));
  const field = `${partNoun[part]} '${path}'`;
  switch (issue.keyword) {
    case 'additionalProperties':
      return `${partNoun[part]} '${name(String(params.additionalProperty))}' is not allowed.`;
    case 'required':
      return `${partNoun[part]} '${name(String(params.missingProperty))}' is required.`;
    case 'type':
      return path === ''
        ? `The ${part === 'body' ? 'request body' : part} must be ${typeNoun[String(params.type)] ?? String(params.type)}.`
        : `${field} must be ${typeNoun[String(params.type)] ?? String(params.type)}.`;
    case 'minimum':
      return `${field} must be at least ${String(params.limit)}.`;
    case 'maximum':
      return `${field} must be at most ${String(params.limit)}.`;
    case 'minLength':
      return Number(params.limit) === 1
        ? `${field} must not be empty.`
        : `${field} must be at least ${String(params.limit)} characters long.`;
    case 'maxLength':
      return `${field} must be at most ${String(params.limit)} characters long.`;
    case 'pattern':
      return `${field} must contain a non-blank character.`;
    case 'format':
      return params.format === 'date-time'
        ? `${field} must be an RFC 3339 date-time in years 0000-9999 (UTC), e.g. 2026-12-01T10:00:00Z.`
        : `${field} must be a ${String(params.format)}.`;
    case 'wellFormed':
      return `${field} must be well-formed Unicode text (it holds a lone surrogate).`;
    case 'decimal':
      return `${field} must be an integer written in plain decimal digits.`;
    case 'enum':
      return `${field} must be one of: ${(params.allowedValues as unknown[]).join(', ')}.`;
    default:
      return `${field} is invalid (${issue.message ?? issue.keyword}).`;
  }
}
