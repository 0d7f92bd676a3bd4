import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { retryAfterSeconds, toErrorBody } from '../../errors/index.ts';
import type { AppError } from '../../errors/index.ts';
import { bearerChallenge } from '../auth/bearer-token.ts';
import { lingerOnUnreadBody } from '../limits/linger-on-unread-body.ts';
import { toAppError } from './to-app-error.ts';
import type { Face } from '../../telemetry/metrics-types.ts';

/** How a face sends a failed request: REST as the Error body, GraphQL as `{ errors }`. */
export type SendError = (reply: FastifyReply, error: AppError) => FastifyReply;

/** The headers an error calls for, on either face: how to authenticate, when to retry (the catalogue says). */
export function errorHeaders(error: Pick<AppError, 'code' | 'status' | 'message' | 'said'>): Record<string, string> {
  const challenge = bearerChallenge(error);
  if (challenge) return { 'WWW-Authenticate': challenge };
  const retryAfter = retryAfterSeconds(error.code);
  return retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) };
}

/** Status, headers and content type of an error answer; the body is the face's. */
export function replyWithError(reply: FastifyReply, error: AppError): FastifyReply {
  return reply.code(error.status).headers(errorHeaders(error)).type('application/json; charset=utf-8');
}

/** The contract's Error body (§2.4). */
export const sendErrorBody: SendError = (reply, error) => replyWithError(reply, error).send(toErrorBody(error));

/** The one boundary where a failed request becomes a response: mapped to the catalogue, logged once, sent in `send`'s shape. */
export function errorHandler(send: SendError, face: Face = 'rest') {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const appError = toAppError(error);
    request.server.metrics.error(face, appError.code);
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
