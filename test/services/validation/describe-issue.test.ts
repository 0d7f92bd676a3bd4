import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { describeIssue, fieldNaming } from '../../../src/services/validation/describe-issue.ts';

const issue = (keyword: string, instancePath: string, params: Record<string, unknown> = {}): ErrorObject => ({
  keyword,
  instancePath,
  schemaPath: '',
  params,
});
const query = (field: string) => (field === '' ? 'The query string' : `Query parameter '${field}'`);

describe('describeIssue', () => {
  it.each([
    [issue('required', '', { missingProperty: 'name' }), "Field 'name' is required."],
    [issue('additionalProperties', '', { additionalProperty: 'id' }), "Field 'id' is not allowed."],
    [issue('type', '/categoryId', { type: 'integer' }), "Field 'categoryId' must be an integer."],
    [issue('type', '', { type: 'object' }), 'The input must be a JSON object.'],
    [issue('minimum', '/limit', { limit: 1 }), "Field 'limit' must be at least 1."],
    [issue('maximum', '/limit', { limit: 100 }), "Field 'limit' must be at most 100."],
    [issue('minLength', '/name', { limit: 1 }), "Field 'name' must not be empty."],
    [issue('minLength', '/name', { limit: 3 }), "Field 'name' must be at least 3 characters long."],
    [issue('maxLength', '/name', { limit: 100 }), "Field 'name' must be at most 100 characters long."],
    [issue('format', '/name', { format: 'non-blank' }), "Field 'name' must contain a non-blank character."],
    [issue('format', '/id', { format: 'message-id' }), "Field 'id' must look like msg_<digits>."],
    [
      issue('format', '/shipDate', { format: 'date-time' }),
      "Field 'shipDate' must be an RFC 3339 date-time in years 0000-9999 (UTC), e.g. 2026-12-01T10:00:00Z.",
    ],
    [issue('enum', '/status', { allowedValues: ['available', 'sold'] }), "Field 'status' must be one of: available, sold."],
    [issue('decimal', '/limit'), "Field 'limit' must be an integer written in plain decimal digits."],
    [issue('wellFormed', '/name'), "Field 'name' must be well-formed Unicode text without NUL (U+0000) or a lone surrogate."],
    [issue('type', '/a/b', { type: 'string' }), "Field 'a.b' must be a string."],
  ])('says %j in one sentence naming the field', (problem, words) => {
    expect(describeIssue(problem, fieldNaming)).toBe(words);
  });

  it("names fields the caller's way, the rule's words unchanged", () => {
    expect(describeIssue(issue('maximum', '/limit', { limit: 100 }), query)).toBe("Query parameter 'limit' must be at most 100.");
    expect(describeIssue(issue('required', '', { missingProperty: 'limit' }), query)).toBe("Query parameter 'limit' is required.");
    expect(describeIssue(issue('type', '', { type: 'object' }), query)).toBe('The query string must be a JSON object.');
  });
});
