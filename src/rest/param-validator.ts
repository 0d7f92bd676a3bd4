import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { addFormats } from '../services/validation/formats.ts';

// Query strings and path parameters arrive as text, so they are coerced ("20" → 20);
// bodies are JSON and are not ("20" is not an integer).
const paramAjv = addFormats(new Ajv({ coerceTypes: true, useDefaults: true, removeAdditional: false, allErrors: false }));

const DECIMAL = /^(0|[1-9][0-9]*)$/;

interface ObjectSchema {
  properties?: Record<string, { type?: unknown }>;
}

/**
 * A validator for query strings and path parameters. Before ajv coerces text to numbers
 * (which would take `0x10` as 16 and `1e3`, `+1`, `01`, ` 5` or `1.0` as integers), every
 * integer parameter must be plain decimal digits; anything else fails with keyword `decimal`.
 */
export function compileParamValidator(schema: ObjectSchema): (data: Record<string, unknown>) => boolean {
  const validate: ValidateFunction = paramAjv.compile(schema);
  const integers = Object.entries(schema.properties ?? {})
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
  const check = (data: Record<string, unknown>): boolean => {
    for (const name of integers) {
      const raw = data?.[name];
      if (typeof raw === 'string' && !DECIMAL.test(raw)) {
        const issue: ErrorObject = { keyword: 'decimal', instancePath: `/${name}`, schemaPath: `#/properties/${name}`, params: {} };
        check.errors = [issue];
        return false;
      }
    }
    const valid = validate(data);
    check.errors = validate.errors ?? null;
    return valid;
  };
  check.errors = null as ErrorObject[] | null;
  return check;
}
