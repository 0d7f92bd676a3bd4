import { GraphQLError } from 'graphql';
import type { SourceLocation } from 'graphql';
import type { AppError, ErrorCode } from '../errors/index.ts';
import { errorHeaders, replyWithError } from '../http/errors/error-handler.ts';
import type { SendError } from '../http/errors/error-handler.ts';

/** How a request-level error asks its HTTP answer to be sent (result-init.ts reads it). */
export interface HttpExtension {
  status: number;
  headers: Record<string, string>;
  /**
   * A document the server cannot run (its syntax, a limit, validation): GraphQL over HTTP answers
   * it with 200 under `application/json`, with `status` under `application/graphql-response+json`.
   */
  spec?: true;
}

/** Where an error stands: in the document and in the result (graphql-js's errors and graphql-jit's both have these). */
export interface ErrorPlace {
  locations?: readonly SourceLocation[] | undefined;
  path?: GraphQLError['path'];
}

export interface CodedErrorOptions {
  /** The error this one replaces: its locations in the document and its path in the result are kept. */
  from?: ErrorPlace | null;
  /** Refused before any field ran: the HTTP answer takes this status and headers, as REST's would. */
  requestLevel?: boolean;
  headers?: Record<string, string>;
  /** A document the server cannot run (its syntax, a limit, validation): see HttpExtension.spec. */
  documentError?: boolean;
}

/** The HTTP answer a coded error asks for, where it is request-level (result-init.ts). */
export function httpOf(error: GraphQLError): HttpExtension | undefined {
  return (error.extensions as { http?: HttpExtension }).http;
}

/**
 * The one public shape of a GraphQL error, built once where its code is known: its message, its
 * locations and path, and REST's code and status in `extensions`, nothing else (no library's own
 * code, no originalError, whose stack its readers would format). It carries no stack trace: it
 * is an answer, not a fault (a fault's own error is logged before it is masked, log-unexpected.ts).
 * How a request-level error is answered over HTTP rides along in `extensions.http`, which is not
 * enumerable: no serialisation (JSON, a stream's event, a socket's message) shows it.
 */
export function codedError(
  message: string,
  code: ErrorCode,
  status: number,
  { from, requestLevel = false, headers = {}, documentError = false }: CodedErrorOptions = {},
): GraphQLError {
  const extensions: Record<string, unknown> = { code, status };
  if (requestLevel) {
    const http: HttpExtension = documentError ? { status, headers, spec: true } : { status, headers };
    Object.defineProperty(extensions, 'http', { value: http, enumerable: false });
  }
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const error = new GraphQLError(message, { path: from?.path, extensions });
  Error.stackTraceLimit = limit;
  // graphql-js works locations out from AST nodes; the error replaced has them already (graphql-jit's has no nodes).
  if (from?.locations) Object.defineProperty(error, 'locations', { value: from.locations, enumerable: true });
  return error;
}

/** An AppError as GraphQL shows it; request-level when it was not raised by a field. */
export function fromAppError(error: AppError, from?: ErrorPlace | null, { documentError = false } = {}): GraphQLError {
  const requestLevel = !from?.path || from.path.length === 0;
  return codedError(error.message, error.code, error.status, { from, requestLevel, headers: errorHeaders(error), documentError });
}

/** For errors raised before the operation runs (rate limit, idempotency, a bad body): the same shape, sent by the route. */
export const sendGraphQLErrors: SendError = (reply, error) =>
  replyWithError(reply, error).send({ errors: [codedError(error.message, error.code, error.status)] });
