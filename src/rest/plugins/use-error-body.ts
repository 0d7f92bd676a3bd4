import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toErrorBody } from '../../errors/index.ts';
import type { AppError } from '../../errors/index.ts';
import { WWW_AUTHENTICATE } from '../../http/bearer-token.ts';
import { toAppError } from '../to-app-error.ts';

type SendError = (reply: FastifyReply, error: AppError) => FastifyReply;

function errorHeaders(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.status === 401) reply.header('WWW-Authenticate', WWW_AUTHENTICATE);
  if (error.status === 503) reply.header('Retry-After', '1');
  return reply.code(error.status).type('application/json; charset=utf-8');
}

/** The contract's Error body (§2.4). */
export const sendErrorBody: SendError = (reply, error) => errorHeaders(reply, error).send(toErrorBody(error));

/** The same code and status, in the shape a GraphQL client reads. */
export const sendGraphQLErrors: SendError = (reply, error) => {
  const { code, message, status } = toErrorBody(error);
  return errorHeaders(reply, error).send({ errors: [{ message, extensions: { code, status } }] });
};

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
    return send(reply, appError);
  };
}

export const handleError = errorHandler(sendErrorBody);

export function useErrorBody(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
}
