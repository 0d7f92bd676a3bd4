import type { JsonSchema } from '../../util/json-schema.ts';
import { ACCOUNT_NAME_PATTERN } from '../api-keys/key-format.ts';
import { MESSAGE_ID_PATTERN } from '../messages/message-schema.ts';

/**
 * The services' named formats (formats.ts) that JSON Schema's own vocabulary lacks, as the
 * `pattern` each stands for. A client validating with stock Ajv in strict mode refuses an
 * unknown format; a pattern it knows.
 */
export const FORMAT_PATTERNS: Readonly<Record<string, string>> = {
  'non-blank': '\\S',
  'message-id': MESSAGE_ID_PATTERN.source,
  'account-name': ACCOUNT_NAME_PATTERN.source,
};

/** OpenAPI's integer formats: what `minimum` and `maximum` already say. */
const RANGE_FORMATS = new Set(['int32', 'int64']);

/**
 * A service's schema in JSON Schema 2020-12's own words, for those outside (an MCP tool's input
 * schema): named formats become their patterns, OpenAPI's integer formats go (their ranges stay).
 * The rule is the same; describe-issue.ts words a pattern as it words its format.
 */
export function standardSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'format' && typeof value === 'string') {
      if (value in FORMAT_PATTERNS) out.pattern = FORMAT_PATTERNS[value];
      else if (!RANGE_FORMATS.has(value)) out.format = value;
    } else if (keyword === 'items' && typeof value === 'object' && value !== null) {
      out.items = standardSchema(value as JsonSchema);
    } else if (keyword === 'properties' && typeof value === 'object' && value !== null) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, standardSchema(inner as JsonSchema)]));
    } else {
      out[keyword] = value;
    }
  }
  return out;
}
