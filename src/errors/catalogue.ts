/**
 * Every error code the service can answer with, its HTTP status, every message a client can
 * be told with it, and for an error a client may simply repeat, how many seconds to tell it to
 * wait (Retry-After). REST puts these in the Error body; GraphQL in `extensions`.
 *
 * A message is named by what happened; `default` is the one sent when the thrower says nothing
 * more, and a code without one must always say which. `{{name}}` is filled in where the error
 * is raised (AppError.of); every other word is here, so the OpenAPI examples show what the
 * server says and a change of wording is one line. The words that are not here are those of a
 * schema's issue (services/validation/describe-issue.ts names the field as the client wrote
 * it) and graphql-js's own (syntax and validation errors), passed through as they are.
 * Messages named `graphql…` are said by the GraphQL face only, `mcp…` by the MCP face only; both are left out of the REST docs.
 */
export const errorCatalogue = {
  BAD_REQUEST: {
    status: 400,
    messages: {
      default: 'The request is malformed.',
      noHost: 'An HTTP/1.1 request needs a Host header.',
      contentLength: 'The Content-Length header does not match the body.',
      badUrl: 'The request URL is malformed.',
      longParameter: 'A path parameter is too long.',
    },
  },
  VALIDATION_FAILED: {
    status: 400,
    messages: {
      default: 'The request has missing or invalid values.',
      idempotencyKeyForm: 'Idempotency-Key must be 1-255 visible ASCII characters.',
      idempotencyKeyTwice: 'Send one Idempotency-Key header.',
      mcpIdempotencyKeyNotString: '_meta["io.petstore/idempotency-key"] must be a string: 1-255 visible ASCII characters.',
      idempotencyKeyRefused:
        '{{operation}} does not take an Idempotency-Key: its answer holds a new key, which is never stored, so it cannot be replayed. Send it without one; if unsure whether it worked, list your keys.',
      jsonTooDeep: 'The JSON nests deeper than {{max}} levels of objects and arrays.',
      prototypeKey:
        'The request body may not hold a key named "__proto__", nor a "constructor" object with a "prototype" key: they would change how objects behave.',
      accountName: 'Account name must be {{rule}}.',
      graphqlPageDirection: "Pass either 'first'/'after' (forward) or 'last'/'before' (backward), not both.",
      graphqlFragmentCycle: 'Cannot spread fragment "{{fragment}}" within itself.',
      graphqlNotJsonParameter: "Query parameter '{{parameter}}' is not valid JSON.",
      graphqlBodyNotObject: 'The request body must be a JSON object.',
      graphqlUnexpectedParameter: "Unexpected parameter '{{parameter}}' in the request body.",
      graphqlParameterTwice: "Send '{{parameter}}' once.",
      graphqlQueryNotString: "'query' must be a string: the operation's text.",
      graphqlOperationNameNotString: "'operationName' must be a string.",
      graphqlDocumentIdNotString: "'documentId' must be a string: sha256:<hex>.",
      graphqlVariablesNotObject: "'variables' must be an object of the operation's variables.",
      graphqlExtensionsNotObject: "'extensions' must be an object.",
      graphqlNoOperationInDocument: 'The document defines no operation to run, only fragments.',
      graphqlOperationNameNeeded: "The document defines {{count}} operations: send 'operationName' to pick the one to run.",
      graphqlUnknownOperation: "The document defines no operation named '{{name}}'.",
      graphqlNotAReference: "A representation must be an object whose '__typename' is {{types}}.",
      graphqlStreamInitialCount: "@stream's initialCount must be 0 or more (got {{count}}).",
      graphqlSocketSubscriptionsOnly: 'Over WebSocket only subscriptions run: send queries and mutations over HTTP (POST /graphql).',
      mcpNotJsonRpc:
        'The request body is not a JSON-RPC 2.0 request: it needs "jsonrpc": "2.0", an id (a string or a number), a method, and params (an object, or absent).',
      mcpBatch: 'Send one JSON-RPC message per request: MCP has no batches since 2025-06-18.',
      mcpProtocolVersion: 'MCP-Protocol-Version {{version}} is not one this server speaks: {{supported}}.',
      mcpToolParams: "tools/call takes params.name (a tool's name, a string) and params.arguments (an object, or absent).",
      mcpListenParams: 'subscriptions/listen takes params.notifications, an object naming what to hear of (toolsListChanged: true).',
      mcpNameHeader: "The Mcp-Name header must name the tool the body calls ('{{name}}').",
    },
  },
  INVALID_JSON: {
    status: 400,
    messages: {
      default: 'The request body is not valid JSON.',
      emptyBody: 'The request body is empty; send a JSON object.',
      notUtf8: 'The request body is not valid UTF-8; send JSON in UTF-8.',
    },
  },
  INVALID_CONTENT_TYPE: {
    status: 400,
    messages: {
      default: 'The request body must be sent as Content-Type: application/json.',
      charset: 'The request body must be JSON in UTF-8: send Content-Type: application/json (with charset=utf-8 or no charset).',
    },
  },
  INVALID_CURSOR: { status: 400, messages: { default: 'The cursor is not valid; use the one from the previous page.' } },
  // graphql-js's words, passed through (the document's syntax error, with its line and column).
  GRAPHQL_PARSE_FAILED: { status: 400, messages: {} },
  UNKNOWN_DOCUMENT: {
    status: 400,
    messages: { default: "No trusted document has this id; build the client against this server's manifest." },
  },
  TRUSTED_DOCUMENTS_ONLY: {
    status: 400,
    messages: { default: 'This server runs trusted documents only: send the documentId from the manifest, not the query text.' },
  },
  QUERY_TOO_COMPLEX: {
    status: 400,
    messages: {
      graphqlBytes: 'The GraphQL document is {{bytes}} bytes, over the limit of {{max}} (comments and whitespace included).',
      graphqlTokens: 'The GraphQL document has more than {{max}} tokens, over the limit.',
      graphqlDepth:
        'The operation nests {{depth}} levels deep, over the limit of {{max}} (each field with a selection, inline fragment and fragment spread is a level).',
      graphqlAliases: 'The operation has {{count}} aliases, over the limit of {{max}} (counted through every fragment spread).',
      graphqlDirectives: 'The operation has {{count}} directives, over the limit of {{max}} (counted through every fragment spread).',
      graphqlReferences: 'The operation carries {{count}} entity references, over the limit of {{max}}.',
      graphqlCost:
        'The operation costs {{cost}}, over the limit of {{max}}: a field that runs a query of its own costs 10, an object 1, and what is under a list counts once per item (first/last, 20 by default). Ask for smaller pages or fewer fields.',
    },
  },
  UNAUTHORIZED: {
    status: 401,
    messages: {
      default: 'Missing API key: send Authorization: Bearer <API_KEY>.',
      notBearer: 'The Authorization header must use the Bearer scheme: send Authorization: Bearer <API_KEY>.',
      invalidKey: 'The API key is invalid or has been revoked.',
      accountDisabled: "The API key's account is disabled.",
      graphqlRevokedWhileSubscribed: 'The API key was revoked; this subscription has ended.',
      graphqlDisabledWhileSubscribed: "The API key's account is disabled; this subscription has ended.",
      // An access token's refusals (RFC 6750 invalid_token): each says which check failed only
      // where that tells the holder nothing about the server's keys.
      tokenInvalid: 'The access token is invalid.',
      tokenExpired: 'The access token has expired; get a new one from your identity provider.',
      tokenNotYetValid: 'The access token is not valid yet.',
      tokenAudience: "The access token is for another API: its audience is not '{{audience}}'.",
      tokenIssuer: "The access token's issuer is not one this server trusts.",
      tokenNoSubject: "The access token has no '{{claim}}' claim to name its account.",
      tokenBadSubject: "The access token's '{{claim}}' claim cannot name an account: at most 255 characters, and no control characters.",
      tokenNoAccount: "No account is linked to this access token's subject.",
      tokenAccountDisabled: "The access token's account is disabled.",
      graphqlTokenExpiredWhileSubscribed: 'The access token has expired; this subscription has ended. Subscribe again with a new token.',
    },
  },
  FORBIDDEN: {
    status: 403,
    messages: {
      mcpOrigin:
        "A page from {{origin}} may not call the MCP endpoint (DNS-rebinding protection): an origin must be listed in CORS_ORIGINS, or be this server's own.",
    },
  },
  INSUFFICIENT_SCOPE: {
    status: 403,
    messages: { missing: "This operation needs the scope '{{scope}}', which the credential sent does not have." },
  },
  NOT_FOUND: {
    status: 404,
    messages: {
      noRoute: 'No route {{method}} {{path}}.',
      noRouteOutsideV1: 'No route {{method}} {{path}}. The message quickstart lives outside /v1: {{outside}}.',
      noDocsRoute: 'No route {{method}} {{path}}. The OpenAPI document is at {{openapi}}.',
      graphiqlAsset: 'No GraphiQL asset {{asset}}: the page names its assets; reload it.',
    },
  },
  PET_NOT_FOUND: { status: 404, messages: { byId: 'Pet {{id}} could not be found.' } },
  MESSAGE_NOT_FOUND: { status: 404, messages: { byId: 'Message {{id}} could not be found.' } },
  API_KEY_NOT_FOUND: {
    status: 404,
    messages: { byId: 'API key {{id}} could not be found.', byIdOrPrefix: "No API key with id or prefix '{{key}}'." },
  },
  ACCOUNT_NOT_FOUND: { status: 404, messages: { byName: "No account is named '{{name}}'." } },
  ORDER_NOT_FOUND: { status: 404, messages: { byId: 'Order {{id}} could not be found.' } },
  TOOL_NOT_FOUND: { status: 404, messages: { mcpByName: "No tool is named '{{name}}': tools/list names those this server offers." } },
  METHOD_NOT_FOUND: { status: 404, messages: { mcpByName: "This MCP server has no method '{{method}}'." } },
  RESOURCE_NOT_FOUND: {
    status: 404,
    messages: { mcpByUri: "No resource '{{uri}}': resources/list names those this server offers." },
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    messages: {
      notOnRoute: '{{method}} is not allowed on {{route}}; use {{allow}}.',
      connect: 'CONNECT is not allowed on {{target}}: this server is not a proxy.',
      graphqlMutationOverGet: 'A mutation runs over POST only: GET runs queries, which change nothing.',
      mcpPostOnly: 'The MCP endpoint is stateless: POST each JSON-RPC message; there is no stream to GET nor session to DELETE.',
    },
  },
  NOT_ACCEPTABLE: {
    status: 406,
    messages: {
      graphqlNothingAcceptable:
        'GraphQL answers as JSON or as a stream: send Accept: application/json (or application/graphql-response+json) for queries and mutations, text/event-stream or multipart/mixed for subscriptions.',
      mcpJson: 'MCP answers here are JSON: send Accept: application/json, text/event-stream (or application/json).',
      graphqlSubscriptionAsJson:
        'A subscription is answered as a stream of events: send Accept: text/event-stream (GraphQL over SSE) or multipart/mixed (Apollo Client), or subscribe over WebSocket (graphql-ws).',
    },
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    messages: { default: 'A request with this Idempotency-Key is still being handled; retry shortly.' },
  },
  PET_NOT_AVAILABLE: { status: 409, messages: { notAvailable: 'Pet {{id}} is {{status}}; only an available pet can be ordered.' } },
  INVALID_ORDER_TRANSITION: {
    status: 409,
    messages: {
      notNext: 'Order {{id}} is {{status}}; it can move to {{next}}, not {{target}}.',
      delivered: 'Order {{id}} is delivered; it cannot change any more.',
      notCancellable: 'Order {{id}} is delivered; it can no longer be cancelled.',
      changedMeanwhile: 'Order {{id}} changed meanwhile; read it again.',
    },
  },
  ACCOUNT_NAME_TAKEN: { status: 409, messages: { byName: "The account name '{{name}}' is taken; choose another." } },
  API_KEY_LIMIT_REACHED: {
    status: 409,
    messages: {
      atCap: 'This account already has {{cap}} active keys, the most it may hold; revoke one first (DELETE /v1/keys/{keyId}).',
    },
  },
  IDEMPOTENCY_KEY_REUSED: { status: 422, messages: { default: 'This Idempotency-Key was already used with a different request.' } },
  REQUEST_TIMEOUT: { status: 408, messages: { default: 'The request was not received in time.' } },
  PAYLOAD_TOO_LARGE: { status: 413, messages: { default: 'The request body is too large.' } },
  HEADERS_TOO_LARGE: { status: 431, messages: { default: 'The request headers are too large (16 KiB in all).' } },
  RATE_LIMITED: {
    status: 429,
    messages: { spent: 'Rate limit of {{limit}} per minute ({{policy}}) reached; retry in {{seconds}} s.' },
  },
  // A hint only: a slot frees as soon as one of the key's streams closes.
  TOO_MANY_SUBSCRIPTIONS: {
    status: 429,
    messages: {
      graphqlPerKey: 'At most {{max}} subscriptions may be open per key; close one first.',
      graphqlSocketsPerKey:
        'At most {{max}} WebSockets may be open per key on one instance; close one first (one socket carries many subscriptions).',
    },
    retryAfterSeconds: 5,
  },
  // Said in a subscription's last event, never as an HTTP status: the stream had begun.
  SUBSCRIBER_TOO_SLOW: {
    status: 429,
    messages: {
      graphqlFellBehind: 'This subscription fell {{events}} events behind and has ended; subscribe again, and read events as they come.',
    },
  },
  // Said in a GraphQL answer with more errors than it lists (its field errors leave the HTTP status as it is).
  TOO_MANY_ERRORS: {
    status: 400,
    messages: { graphqlLeftOut: '{{count}} more errors were left out: an answer lists at most {{max}}.' },
  },
  INTERNAL_ERROR: { status: 500, messages: { default: 'An unexpected error occurred.' } },
  SERVICE_UNAVAILABLE: {
    status: 503,
    messages: {
      databaseBusy: 'The database is busy; retry shortly.',
      databaseUnavailable: 'The database is unavailable; retry shortly.',
      balancerNoInstance: 'No instance is ready to serve this request; retry shortly.',
      graphqlShuttingDown: 'The server is shutting down; subscribe again to reach another instance.',
    },
    retryAfterSeconds: 1,
  },
  ISSUER_UNAVAILABLE: {
    status: 503,
    messages: {
      unreachable: "Access tokens cannot be checked now: their issuer's keys cannot be fetched. Retry shortly; API keys still work.",
    },
    retryAfterSeconds: 10,
  },
  // Said by the balancers in front (deploy/haproxy.cfg, deploy/nginx.conf), never by the server
  // itself: an instance that failed or timed out on a request may have done its work.
  BAD_GATEWAY: {
    status: 502,
    messages: {
      balancerInstanceFailed:
        'The instance serving this request failed before answering, and may have done the work: retry with the same Idempotency-Key.',
    },
    retryAfterSeconds: 1,
  },
  GATEWAY_TIMEOUT: {
    status: 504,
    messages: {
      balancerTimeout:
        'The instance serving this request did not answer in time, and may have done the work: retry with the same Idempotency-Key.',
    },
    retryAfterSeconds: 1,
  },
  NOT_READY: {
    status: 503,
    messages: {
      default: 'The service is not ready: the database does not answer.',
      shuttingDown: 'The server is shutting down; send requests to another instance.',
    },
    retryAfterSeconds: 1,
  },
} as const satisfies Record<string, { status: number; messages: Record<string, string>; retryAfterSeconds?: number }>;

type Catalogue = typeof errorCatalogue;

export type ErrorCode = keyof Catalogue;

/** The names of the messages `code` can be sent with. */
export type MessageName<C extends ErrorCode> = keyof Catalogue[C]['messages'] & string;

/** The codes that can be sent with nothing more said. */
export type PlainCode = { [C in ErrorCode]: 'default' extends MessageName<C> ? C : never }[ErrorCode];

type Template<C extends ErrorCode, N extends MessageName<C>> = Catalogue[C]['messages'][N] & string;

/** The `{{name}}`s of a template. */
type Placeholders<S extends string> = S extends `${string}{{${infer P}}}${infer Rest}` ? P | Placeholders<Rest> : never;

/** What a message needs filled in: nothing, or a value for each of its placeholders. */
export type MessageParams<C extends ErrorCode, N extends MessageName<C>> = [Placeholders<Template<C, N>>] extends [never]
  ? [params?: undefined]
  : [params: Record<Placeholders<Template<C, N>>, string | number>];

/** Every placeholder name any message uses: the OpenAPI examples need a value for each. */
export type Placeholder = {
  [C in ErrorCode]: { [N in MessageName<C>]: Placeholders<Template<C, N>> }[MessageName<C>];
}[ErrorCode];

/** A message's words with its placeholders filled in. */
export function errorMessage(code: ErrorCode, name: string, params?: Readonly<Record<string, string | number>>): string {
  const template = (errorCatalogue[code].messages as Record<string, string>)[name];
  if (template === undefined) throw new Error(`the catalogue has no message ${code}.${name}`);
  return params === undefined ? template : template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(params[key]));
}

/** Seconds a client is told to wait before repeating a request refused with `code`, or undefined. (RATE_LIMITED sets its own, from its window.) */
export function retryAfterSeconds(code: ErrorCode): number | undefined {
  const entry = errorCatalogue[code];
  return 'retryAfterSeconds' in entry ? entry.retryAfterSeconds : undefined;
}
