import { KEYED_CACHE_CONTROL, NO_STORE } from '../http/caching/cache-control.ts';
import { errorCatalogue } from '../errors/index.ts';
import { errorExamples } from './error-examples.ts';
import type { ErrorCode } from '../errors/index.ts';
import { signedUpSchema, signUpSchema } from '../services/accounts/index.ts';
import { apiKeySchema, newApiKeySchema, newApiKeyWithSecretSchema } from '../services/api-keys/index.ts';
import { messageSchema, sendMessageSchema } from '../services/messages/index.ts';
import { advanceOrderSchema, orderSchema, placeOrderSchema } from '../services/orders/index.ts';
import { PAGE_SIZE } from '../services/pagination/keyset-page.ts';
import { newPetSchema, petSchema } from '../services/pets/index.ts';

export const errorBodySchema = {
  type: 'object',
  description: 'Body of every error response (contract §2.4).',
  required: ['code', 'message', 'status'],
  properties: {
    code: { type: 'string', enum: Object.keys(errorCatalogue), description: 'Machine-readable error code.' },
    message: { type: 'string', maxLength: 1024, description: 'Human-readable description.' },
    status: { type: 'integer', format: 'int32', minimum: 400, maximum: 599, description: 'The HTTP status code of the response.' },
  },
} as const;

/**
 * The records of the API under the names client generators give their types: each becomes
 * `#/components/schemas/<name>` in the OpenAPI document, and routes refer to it by name.
 * The objects are the services' own rules, so the document cannot drift from the checks.
 */
export const NAMED_SCHEMAS = {
  Pet: petSchema,
  NewPet: newPetSchema,
  Order: orderSchema,
  NewOrder: placeOrderSchema,
  OrderStatusChange: advanceOrderSchema,
  Message: messageSchema,
  NewMessage: sendMessageSchema,
  ApiKey: apiKeySchema,
  NewApiKey: newApiKeySchema,
  NewApiKeyWithSecret: newApiKeyWithSecretSchema,
  Error: errorBodySchema,
} as const;

/** Named only where sign-up is open (SIGNUP=open): otherwise nothing refers to them. */
export const SIGNUP_SCHEMAS = { SignUp: signUpSchema, SignedUp: signedUpSchema } as const;

export type SchemaName = keyof typeof NAMED_SCHEMAS | keyof typeof SIGNUP_SCHEMAS;

export const ref = (name: SchemaName) => ({ $ref: `${name}#` }) as const;

const STATUS_MEANING: Record<number, string> = {
  400: 'Missing or invalid values.',
  401: 'Missing or invalid API key.',
  404: 'The requested resource could not be found.',
  409: 'The request conflicts with the current state.',
  422: 'The Idempotency-Key was already used with another request.',
  413: 'The body is too large.',
  429: 'A rate limit is spent; see Retry-After.',
  500: 'An unexpected error; the details are in the server log under the request id.',
  503: 'Not ready, or the database is busy or away; retry after Retry-After.',
};

/**
 * Response entries for the error codes a route can answer with, grouped by status: each
 * status refers to the Error schema and shows an example for each message its codes are sent
 * with (error-examples.ts), so a 401 shows each reason a key is refused and a 404 its own
 * NOT_FOUND code.
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, object> {
  return errorResponsesWith(ref('Error'), codes);
}

/** As errorResponses, with the Error schema referred to as given (the document's own `#/components/schemas/Error`, after the routes). */
export function errorResponsesWith(errorSchema: object, codes: readonly ErrorCode[]): Record<number, object> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = errorCatalogue[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => [
      status,
      {
        description: `${STATUS_MEANING[status] ?? 'Error.'} Error body with code ${group.map((c) => `\`${c}\``).join(', ')}.`,
        content: {
          'application/json': {
            schema: errorSchema,
            examples: Object.fromEntries(group.flatMap((code) => Object.entries(errorExamples(code)))),
          },
        },
      },
    ]),
  );
}

/** A 201 with the created record and the `Location` it can be read at. */
export function createdResponse(name: SchemaName, description: string) {
  return {
    description,
    ...ref(name),
    headers: { Location: { type: 'string', maxLength: 2048, description: 'Where the created record can be read.' } },
  } as const;
}

/** A 201 whose body holds a secret: no cache on the way may keep it. */
export function secretResponse(name: SchemaName, description: string) {
  return {
    description,
    ...ref(name),
    headers: { 'Cache-Control': { type: 'string', enum: [NO_STORE], description: 'No cache may keep this answer: it holds a secret.' } },
  } as const;
}

/** A 200 page of a keyset list: an array of records, and `Link: rel="next"` when more follow. */
export function pageResponse(name: SchemaName, description: string) {
  return {
    description,
    type: 'array',
    maxItems: PAGE_SIZE.max,
    items: ref(name),
    headers: { Link: { type: 'string', maxLength: 2048, description: 'rel="next" link to the following page, when there is one.' } },
  } as const;
}

const VALIDATOR_HEADERS = {
  ETag: {
    type: 'string',
    description: 'Weak entity tag of this answer: send it back in If-None-Match to be told 304 while nothing changed.',
  },
  'Cache-Control': {
    type: 'string',
    enum: [KEYED_CACHE_CONTROL],
    description: 'Only your own cache may keep it, and must revalidate it before each use.',
  },
  Vary: { type: 'string', description: 'Includes Authorization: the answer is for the key that asked.' },
} as const;

/** A GET's 200 with the validator headers, and the 304 a matching If-None-Match gets (use-conditional-get.ts). */
export function validated<R extends { description: string; headers?: object }>(ok: R) {
  return {
    200: { ...ok, headers: { ...ok.headers, ...VALIDATOR_HEADERS } },
    304: {
      description: 'Not modified: the answer whose ETag was sent in If-None-Match is still current. No body.',
      headers: VALIDATOR_HEADERS,
    },
  } as const;
}

/** What a POST with an Idempotency-Key can add: a duplicate still running, or the key used for another request. */
export const IDEMPOTENT = ['IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED'] as const satisfies readonly ErrorCode[];

/** What every keyed route can be refused with before its own rules run. */
export const KEYED = ['UNAUTHORIZED', 'INSUFFICIENT_SCOPE', 'RATE_LIMITED', 'ISSUER_UNAVAILABLE'] as const satisfies readonly ErrorCode[];
/** What every route with a JSON body can be refused with. */
export const JSON_BODY = ['VALIDATION_FAILED', 'INVALID_JSON', 'INVALID_CONTENT_TYPE'] as const satisfies readonly ErrorCode[];

export const bearerSecurity = [{ bearerAuth: [] }];
