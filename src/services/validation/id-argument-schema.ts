import { decimalUpTo } from '../../util/json-schema.ts';
import type { JsonSchema } from '../../util/json-schema.ts';
import { MAX_SAFE_ID } from './id-schema.ts';

/** The text of an id parseId takes: plain decimal digits, 1 to 2^53−1. */
export const ID_TEXT_PATTERN = decimalUpTo(MAX_SAFE_ID);

/**
 * An id as parseId takes it, in JSON Schema: the decimal text a GraphQL ID carries (GraphQL
 * answers ids as strings) or the integer REST's contract has. `pattern` applies to the text,
 * `minimum` and `maximum` to the number.
 */
export function idArgumentSchema(description: string): JsonSchema {
  return { type: ['string', 'integer'], pattern: ID_TEXT_PATTERN, minimum: 1, maximum: MAX_SAFE_ID, description };
}
