/**
 * Every error code the service can answer with, its HTTP status and the
 * message used when the thrower has nothing more specific to say, and for an error a client
 * may simply repeat, how many seconds to tell it to wait (Retry-After).
 * REST puts these in the Error body; GraphQL in `extensions`.
 */
export const errorCatalogue = {
  BAD_REQUEST: { status: 400, message: 'The request is malformed.' },
  VALIDATION_FAILED: { status: 400, message: 'The request has missing or invalid values.' },
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  INVALID_CONTENT_TYPE: { status: 400, message: 'The request body must be sent as Content-Type: application/json.' },
  INVALID_CURSOR: { status: 400, message: 'The cursor is not valid; use the one from the previous page.' },
  GRAPHQL_PARSE_FAILED: { status: 400, message: 'The GraphQL document could not be parsed.' },
  UNKNOWN_DOCUMENT: { status: 400, message: "No trusted document has this id; build the client against this server's manifest." },
  TRUSTED_DOCUMENTS_ONLY: {
    status: 400,
    message: 'This server runs trusted documents only: send the documentId from the manifest, not the query text.',
  },
  QUERY_TOO_COMPLEX: { status: 400, message: 'The GraphQL operation exceeds a limit (size, tokens, depth, aliases, directives or cost).' },
  UNAUTHORIZED: { status: 401, message: 'A valid API key is required: send Authorization: Bearer <API_KEY>.' },
  NOT_FOUND: { status: 404, message: 'No such route.' },
  PET_NOT_FOUND: { status: 404, message: 'The requested pet could not be found.' },
  MESSAGE_NOT_FOUND: { status: 404, message: 'The requested message could not be found.' },
  API_KEY_NOT_FOUND: { status: 404, message: 'No such API key.' },
  ACCOUNT_NOT_FOUND: { status: 404, message: 'No such account.' },
  ORDER_NOT_FOUND: { status: 404, message: 'The requested order could not be found.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'The method is not allowed on this route.' },
  NOT_ACCEPTABLE: {
    status: 406,
    message: 'The answer can only be JSON: send Accept: application/json (GraphQL also takes application/graphql-response+json).',
  },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, message: 'A request with this Idempotency-Key is still being handled; retry shortly.' },
  PET_NOT_AVAILABLE: { status: 409, message: 'Only an available pet can be ordered.' },
  INVALID_ORDER_TRANSITION: { status: 409, message: 'Orders move forward one step at a time: placed, approved, delivered.' },
  ACCOUNT_NAME_TAKEN: { status: 409, message: 'The account name is taken; choose another.' },
  API_KEY_LIMIT_REACHED: { status: 409, message: 'The account has as many active keys as it may hold; revoke one first.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This Idempotency-Key was already used with a different request.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large (16 KiB in all).' },
  RATE_LIMITED: { status: 429, message: 'Too many requests; see Retry-After.' },
  // A hint only: a slot frees as soon as one of the key's streams closes.
  TOO_MANY_SUBSCRIPTIONS: { status: 429, message: 'Too many subscriptions are open for this key; close one first.', retryAfterSeconds: 5 },
  // Said in a subscription's last event, never as an HTTP status: the stream had begun.
  SUBSCRIBER_TOO_SLOW: { status: 429, message: 'The subscription fell too many events behind and has ended; subscribe again.' },
  INTERNAL_ERROR: { status: 500, message: 'An unexpected error occurred.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The database is busy or unavailable; retry shortly.', retryAfterSeconds: 1 },
  NOT_READY: { status: 503, message: 'The service is not ready: the database does not answer.', retryAfterSeconds: 1 },
} as const satisfies Record<string, { status: number; message: string; retryAfterSeconds?: number }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Seconds a client is told to wait before repeating a request refused with `code`, or undefined. (RATE_LIMITED sets its own, from its window.) */
export function retryAfterSeconds(code: ErrorCode): number | undefined {
  const entry = errorCatalogue[code];
  return 'retryAfterSeconds' in entry ? entry.retryAfterSeconds : undefined;
}
