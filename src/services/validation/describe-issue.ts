import type { ErrorObject } from 'ajv';
import { ACCOUNT_NAME_RULE } from '../api-keys/key-format.ts';
import { ID_TEXT_PATTERN } from './id-argument-schema.ts';
import { FORMAT_PATTERNS } from './standard-schema.ts';

/**
 * How a caller names a field in its messages, chosen where the input arrived: REST says
 * "Query parameter 'limit'" or "Field 'name'", GraphQL "Argument 'first'". `''` names the
 * whole input ("The request body").
 */
export type FieldNaming = (field: string) => string;

/** The services' own naming: a field of the input object. */
export const fieldNaming: FieldNaming = (field) => (field === '' ? 'The input' : `Field '${field}'`);

const TYPE_NOUN: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
};

/** What each named format (formats.ts) means, in words a client can act on. */
const FORMAT_WORDS: Record<string, string> = {
  'date-time': 'must be an RFC 3339 date-time in years 0000-9999 (UTC), e.g. 2026-12-01T10:00:00Z',
  'non-blank': 'must contain a non-blank character',
  'message-id': 'must look like msg_<digits>',
  'account-name': `must be ${ACCOUNT_NAME_RULE}`,
  int64: 'must be an integer of at most 2^53−1 (9007199254740991), the largest a JSON number holds exactly',
  int32: 'must be an integer from -2^31 to 2^31−1',
};

/** A pattern in a schema stated in JSON Schema's own words (standard-schema.ts), worded as what it stands for. */
const PATTERN_WORDS = new Map<string, string>([
  ...Object.entries(FORMAT_PATTERNS).map(([format, pattern]): [string, string] => [pattern, FORMAT_WORDS[format] ?? `must be a ${format}`]),
  [ID_TEXT_PATTERN, `must be an integer from 1 to ${Number.MAX_SAFE_INTEGER} written in plain decimal digits`],
]);

/** The predicate of an issue: everything after the field's name, ending with a full stop. */
function problem(issue: ErrorObject): string {
  const params = issue.params as Record<string, unknown>;
  switch (issue.keyword) {
    case 'type':
      // A schema may allow several types (an MCP tool's nullable argument: integer,null).
      return `must be ${String(params.type)
        .split(',')
        .map((type) => TYPE_NOUN[type] ?? type)
        .join(' or ')}.`;
    case 'minimum':
      return `must be at least ${String(params.limit)}.`;
    case 'maximum':
      return `must be at most ${String(params.limit)}.`;
    case 'minLength':
      return Number(params.limit) === 1 ? 'must not be empty.' : `must be at least ${String(params.limit)} characters long.`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long.`;
    case 'format':
      return `${FORMAT_WORDS[String(params.format)] ?? `must be a ${String(params.format)}`}.`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map((value) => (value === null ? 'null' : String(value))).join(', ')}.`;
    case 'pattern':
      return `${PATTERN_WORDS.get(String(params.pattern)) ?? `must match ${String(params.pattern)}`}.`;
    case 'decimal':
      return 'must be an integer written in plain decimal digits.';
    case 'wellFormed':
      return 'must be well-formed Unicode text without NUL (U+0000) or a lone surrogate.';
    default:
      return `is invalid (${issue.message ?? issue.keyword}).`;
  }
}

/**
 * One sentence a client can act on, naming the offending field the way the caller does.
 * Fastify's validation of REST requests and the services' own validation both describe
 * issues here, so the two faces use the same words for the same rule.
 */
export function describeIssue(issue: ErrorObject, naming: FieldNaming = fieldNaming): string {
  const params = issue.params as Record<string, unknown>;
  if (issue.keyword === 'additionalProperties') return `${naming(shown(String(params.additionalProperty)))} is not allowed.`;
  if (issue.keyword === 'required') return `${naming(String(params.missingProperty))} is required.`;
  return `${naming(shown(issue.instancePath.replace(/^\//, '').replaceAll('/', '.')))} ${problem(issue)}`;
}

/** Field names come from the client: a long one is cut, so a message stays a sentence (the Error body's message is at most 1,024 characters). */
const FIELD_NAME_SHOWN = 100;
const shown = (field: string) => (field.length > FIELD_NAME_SHOWN ? `${field.slice(0, FIELD_NAME_SHOWN)}…` : field);
