import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toErrorBody } from '../errors/index.ts';
import type { AppError } from '../errors/index.ts';
import { WWW_AUTHENTICATE } from './bearer-token.ts';
import { lingerOnUnreadBody } from './linger-on-unread-body.ts';
import { toAppError } from './to-app-error.ts';

/** How a face sends a failed request: REST as the Error body, GraphQL as `{ errors }`. */
export type SendError = (reply: FastifyReply, error: AppError) => FastifyReply;

/** Seconds a client at the subscription cap is told to wait: a hint only, a slot frees when one of its streams closes. */
const SUBSCRIPTION_RETRY_AFTER_S = 5;

/** The headers an error calls for, on either face: how to authenticate, when to retry. (RATE_LIMITED sets its own.) */
export function errorHeaders(error: Pick<AppError, 'code' | 'status'>): Record<string, string> {
  if (error.status === 401) return { 'WWW-Authenticate': WWW_AUTHENTICATE };
  if (error.status === 503) return { 'Retry-After': '1' };
  if (error.code === 'TOO_MANY_SUBSCRIPTIONS') return { 'Retry-After': String(SUBSCRIPTION_RETRY_AFTER_S) };
  return {};
}

/** Status, headers and content type of an error answer; the body is the face's. */
export function replyWithError(reply: FastifyReply, error: AppError): FastifyReply {
  return reply.code(error.status).headers(errorHeaders(error)).type('application/json; charset=utf-8');
}

/** The contract's Error body (§2.4). */
export const sendErrorBody: SendError = (reply, error) => replyWithError(reply, error).send(toErrorBody(error));

/** The one boundary where a failed request becomes a response: mapped to the catalogue, logged once, sent in `send`'s shape. */
export function errorHandler(send: SendError) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const appError = toAppError(error);
    if (appError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      // The access line already has the status; the code and message are for debugging.
      request.log.debug({ code: appError.code }, appError.message);
    }
    lingerOnUnreadBody(request, reply);
    return send(reply, appError);
  };
}

export const handleError = errorHandler(sendErrorBody);

export function useErrorBody(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
}
