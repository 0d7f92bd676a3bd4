/** A JSON Schema (2020-12) as an object: what the API accepts somewhere, or what a tool takes and answers. */
export type JsonSchema = Record<string, unknown>;

/** Where a GraphQL argument or input field carries the values the API accepts there (graphql/accepted-values.ts). */
export const ACCEPTS = 'accepts';

/** The values the API accepts at a GraphQL argument or input field, as its `extensions` carry them. */
export const acceptedValuesOf = (target: { extensions?: unknown }): JsonSchema | undefined =>
  (target.extensions as Record<string, JsonSchema | undefined> | undefined)?.[ACCEPTS];

/** `schema` that also takes null, in the same keywords where it can (a type list, an enum), else `anyOf`. */
export function orNull(schema: JsonSchema): JsonSchema {
  const { type, enum: values } = schema;
  if (typeof type === 'string' || Array.isArray(type)) {
    if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return schema;
    return {
      ...schema,
      type: [...(Array.isArray(type) ? type : [type]), 'null'],
      ...(Array.isArray(values) ? { enum: [...values, null] } : {}),
    };
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** `schema` without null: what a non-null GraphQL variable may carry where null would be taken. */
export function withoutNull(schema: JsonSchema): JsonSchema {
  const { type, enum: values, anyOf } = schema;
  if (Array.isArray(type) && type.includes('null')) {
    const rest = type.filter((name) => name !== 'null');
    return {
      ...schema,
      type: rest.length === 1 ? rest[0] : rest,
      ...(Array.isArray(values) ? { enum: values.filter((value) => value !== null) } : {}),
    };
  }
  if (Array.isArray(anyOf)) {
    const rest = (anyOf as JsonSchema[]).filter((option) => option.type !== 'null');
    if (rest.length === 1) {
      const { anyOf: _dropped, ...outer } = schema;
      return { ...rest[0], ...outer };
    }
  }
  return schema;
}

/**
 * A regular expression source matching exactly the decimal numbers 1 to `max`, written without
 * leading zeros: the text form of an id (a GraphQL ID) as a JSON Schema `pattern` can state it.
 * Digit by digit: every shorter number, then each number of max's length that is below max at
 * its first differing digit (at the last digit, up to max's own).
 */
export function decimalUpTo(max: number): string {
  const digits = String(max);
  const n = digits.length;
  const options: string[] = n > 1 ? [`[1-9]\\d{0,${n - 2}}`] : [];
  for (let i = 0; i < n; i++) {
    const last = i === n - 1;
    const low = i === 0 ? 1 : 0;
    const high = Number(digits[i]) - (last ? 0 : 1);
    if (high < low) continue;
    const rest = n - i - 1;
    const digit = low === high ? String(low) : high === low + 1 ? `[${low}${high}]` : `[${low}-${high}]`;
    options.push(`${digits.slice(0, i)}${digit}${rest > 1 ? `\\d{${rest}}` : rest === 1 ? '\\d' : ''}`);
  }
  return `^(?:${options.join('|')})$`;
}
