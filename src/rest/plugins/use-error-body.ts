import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, toErrorBody } from '../../errors/index.ts';
import { WWW_AUTHENTICATE } from '../../http/bearer-token.ts';
import { toAppError } from '../to-app-error.ts';

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.status === 401) reply.header('WWW-Authenticate', WWW_AUTHENTICATE);
  if (error.status === 503) reply.header('Retry-After', '1');
  reply.code(error.status).type('application/json; charset=utf-8');
  // A GraphQL client reads `errors`, so the GraphQL route answers in that shape, with the same code and status.
  if (reply.request.routeOptions.url === '/graphql') {
    const { code, message, status } = toErrorBody(error);
    return reply.send({ errors: [{ message, extensions: { code, status } }] });
  }
  return reply.send(toErrorBody(error));
}

/** The one boundary where REST errors become the Error body; nothing else writes an error response. */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(error);
  if (appError.status >= 500) {
    request.log.error({ err: error }, 'request failed');
  } else {
    // The access line already has the status; the code and message are for debugging.
    request.log.debug({ code: appError.code }, appError.message);
  }
  return sendError(reply, appError);
}

export function useErrorBody(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
