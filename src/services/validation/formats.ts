import type { Ajv } from 'ajv';
import { ACCOUNT_NAME_PATTERN } from '../api-keys/key-format.ts';
import { isDateTime } from './date-time.ts';
import { MESSAGE_ID_PATTERN } from '../messages/message-schema.ts';

/**
 * The named string formats of the schemas, for every ajv that checks them (the services' and
 * REST's query and path validator), each with its words in describe-issue.ts. A named format,
 * not a bare `pattern`, so a message can say what the rule means.
 */
export function addFormats(ajv: Ajv): Ajv {
  // RFC 3339, years 0000-9999 in UTC (date-time.ts).
  ajv.addFormat('date-time', isDateTime);
  ajv.addFormat('non-blank', /\S/);
  ajv.addFormat('message-id', MESSAGE_ID_PATTERN);
  ajv.addFormat('account-name', ACCOUNT_NAME_PATTERN);
  // OpenAPI's integer formats, for client generators; the ranges are the schemas' minimum and maximum.
  ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  return ajv;
}
