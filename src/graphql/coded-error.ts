import { GraphQLError } from 'graphql';
import type { AppError, ErrorCode } from '../errors/index.ts';
import { errorHeaders, replyWithError } from '../http/errors/error-handler.ts';
import type { SendError } from '../http/errors/error-handler.ts';

export interface CodedErrorOptions {
  /** The error this one replaces: its position in the document and in the result are kept. */
  from?: GraphQLError | null;
  /**
   * Refused before any field ran: the HTTP answer takes this status and headers, as REST's
   * would. (Yoga reads `extensions.http` for the response and never shows it to the client.)
   */
  requestLevel?: boolean;
  headers?: Record<string, string>;
  /**
   * A document the server cannot run (its syntax, a limit, validation): GraphQL over HTTP answers
   * it with 200 under `application/json`, with `status` under `application/graphql-response+json`
   * (Yoga's result processing reads `extensions.http.spec`).
   */
  documentError?: boolean;
}

/**
 * The one public shape of a GraphQL error: its message, and REST's code and status in
 * `extensions`, nothing else (no library's own code, no originalError).
 */
export function codedError(
  message: string,
  code: ErrorCode,
  status: number,
  { from, requestLevel = false, headers = {}, documentError = false }: CodedErrorOptions = {},
): GraphQLError {
  return new GraphQLError(message, {
    nodes: from?.nodes,
    source: from?.source,
    positions: from?.positions,
    path: from?.path,
    originalError: from?.originalError,
    extensions: { code, status, ...(requestLevel ? { http: { status, headers, ...(documentError ? { spec: true } : {}) } } : {}) },
  });
}

/** An AppError as GraphQL shows it; request-level when it was not raised by a field. */
export function fromAppError(error: AppError, from?: GraphQLError | null, { documentError = false } = {}): GraphQLError {
  const requestLevel = !from?.path || from.path.length === 0;
  return codedError(error.message, error.code, error.status, { from, requestLevel, headers: errorHeaders(error), documentError });
}

/** For errors raised before the operation runs (rate limit, idempotency, a bad body): the same shape, sent by the route. */
export const sendGraphQLErrors: SendError = (reply, error) =>
  replyWithError(reply, error).send({ errors: [codedError(error.message, error.code, error.status)] });
