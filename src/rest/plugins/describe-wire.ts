import type { ErrorCode } from '../../errors/index.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../services/idempotency/index.ts';
import { errorResponsesWith } from '../schemas.ts';

type Json = Record<string, unknown>;
interface Response extends Json {
  headers?: Record<string, Json>;
}
interface Operation extends Json {
  responses: Record<string, Response>;
  parameters?: Json[];
  requestBody?: unknown;
  deprecated?: boolean;
  'x-stability'?: string;
}
interface Document extends Json {
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
}

const header = (description: string, schema: Json = { type: 'string', maxLength: 1024 }) => ({ description, schema });
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Every header the server sends that a client may act on, once, under its own name. */
const HEADERS = {
  'X-Request-Id': header('The id of this request, as the server logs it: quote it in a report.'),
  RateLimit: header(
    'What is left of the budget that counted this request (IETF RateLimit fields): `"<policy>";r=<remaining>;t=<seconds to reset>`. Absent when the count could not be taken (Redis down) or limits are off.',
  ),
  'RateLimit-Policy': header('The budget that counted this request: `"<policy>";q=<quota>;w=60`.'),
  'Retry-After': header('Seconds to wait before trying again (at most a rate-limit window).', {
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: 60,
  }),
  'WWW-Authenticate': header('How to authenticate: `Bearer realm="petstore"`.'),
  'Idempotent-Replayed': header('`true` when this is the stored answer to an earlier request with the same Idempotency-Key.', {
    type: 'string',
    enum: ['true'],
  }),
  Deprecation: header('When the operation was deprecated (RFC 9745), e.g. `@1795305600`.'),
  Sunset: header('When the operation will be removed (RFC 8594): `Thu, 05 Dec 2030 00:00:00 GMT`.'),
  Link: header('`rel="next"` to the following page; on a deprecated operation, `rel="successor-version"`.'),
  'Access-Control-Allow-Origin': header(
    "The request's Origin, only when it is one of CORS_ORIGINS (CORS is off unless origins are listed); never `*`.",
  ),
  'X-API-Stability': header('`experimental`: this operation may still change.', { type: 'string', enum: ['experimental', 'beta'] }),
} as const satisfies Record<string, Json>;

/** What the edge can answer a rate-limited operation with, whatever its own rules: the database busy or away. */
const EDGE_CODES: ErrorCode[] = ['SERVICE_UNAVAILABLE'];

function addHeader(response: Response, name: keyof typeof HEADERS): void {
  response.headers = { ...response.headers };
  // A route's own description of the header (Link on a page, say) says more than the shared one.
  response.headers[name] ??= ref(name);
}

function addResponses(operation: Operation, codes: ErrorCode[]): void {
  for (const [status, response] of Object.entries(errorResponsesWith({ $ref: '#/components/schemas/Error' }, codes))) {
    operation.responses[status] ??= response as Response;
  }
}

/**
 * The wire of every operation, besides bodies: the headers each answer can carry and the
 * answers the edge can give, read from what the routes declare.
 * - Every answer has X-Request-Id, and Access-Control-Allow-Origin for a listed origin; every
 *   operation can fail unexpectedly (500).
 * - An operation that can be rate-limited (it lists a 429) carries RateLimit and
 *   RateLimit-Policy on every answer and can be 503 (the database busy or away); 429 and 503
 *   carry Retry-After, 401 WWW-Authenticate. A body can be 413.
 * - An operation that honours an Idempotency-Key (it lists IDEMPOTENCY_KEY_REUSED) takes the
 *   header, and its success may be a replay (Idempotent-Replayed).
 * - Every server is marked public (`x-internal: false`).
 * - A deprecated operation says so on every answer (Deprecation, Sunset, Link), an
 *   experimental one too (X-API-Stability).
 */
export function describeWire(document: Document): Document {
  const components = { ...document.components };
  components.headers = { ...components.headers, ...Object.fromEntries(Object.entries(HEADERS)) };
  components.parameters = {
    ...components.parameters,
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: the same key with the same request within 24 h gets the first answer again (with Idempotent-Replayed), never a second effect.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
    },
  };
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const limited = '429' in operation.responses;
      // 422 is IDEMPOTENCY_KEY_REUSED alone: only an operation that honours the header can answer it.
      const idempotent = '422' in operation.responses;
      addResponses(operation, ['INTERNAL_ERROR']);
      if (limited) addResponses(operation, operation.requestBody ? [...EDGE_CODES, 'PAYLOAD_TOO_LARGE'] : EDGE_CODES);
      if (idempotent) operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }];
      for (const [status, response] of Object.entries(operation.responses)) {
        addHeader(response, 'X-Request-Id');
        addHeader(response, 'Access-Control-Allow-Origin');
        if (limited) for (const name of ['RateLimit', 'RateLimit-Policy'] as const) addHeader(response, name);
        if (status === '429' || status === '503') addHeader(response, 'Retry-After');
        if (status === '401') addHeader(response, 'WWW-Authenticate');
        if (idempotent && status.startsWith('2')) addHeader(response, 'Idempotent-Replayed');
        if (operation.deprecated) for (const name of ['Deprecation', 'Sunset', 'Link'] as const) addHeader(response, name);
        if (operation['x-stability']) addHeader(response, 'X-API-Stability');
      }
    }
  }
  // Every server listed is a public one (OWASP API9, inventory): none is internal.
  const servers = (document.servers as Json[] | undefined)?.map((server) => ({ ...server, 'x-internal': false }));
  return { ...document, ...(servers ? { servers } : {}), components };
}
