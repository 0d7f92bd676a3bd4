import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { idempotencyHooks } from '../http/idempotency-hooks.ts';
import { hasGraphQLErrors, isMutationRequest } from './mutation-request.ts';
import { AppError } from '../errors/index.ts';
import { errorHandler, sendErrorBody } from '../http/error-handler.ts';
import { NO_STORE } from '../http/secret-answer.ts';
import { sendGraphQLErrors } from './coded-error.ts';
import type { GraphQLOptions } from './create-graphql.ts';
import { createGraphQL } from './create-graphql.ts';
import { fastPathRequest, fastPathResponse, PlainAnswer } from './fast-path.ts';
import { mountGraphQLWs } from './mount-graphql-ws.ts';
import { trustedDocumentsPolicy } from './plugins/use-trusted-documents.ts';
import { yogaWholePath } from './yoga-whole-path.ts';
import type { KeyVerifier } from '../services/api-keys/index.ts';

export interface MountGraphQLOptions extends Omit<GraphQLOptions, 'log'> {
  /** Plain JSON POSTs go from Fastify's parsed body straight to Yoga's operation pipeline (fast-path.ts). */
  fastPath?: boolean;
  /** Checks the keys of WebSocket connections (graphql-ws), which no HTTP hook sees. */
  verifier: KeyVerifier;
}

/** Serves Yoga at /graphql (GET and POST, and subscriptions over WebSocket) inside the Fastify app, beside REST. */
export async function mountGraphQL(app: FastifyInstance, { fastPath = true, verifier, ...options }: MountGraphQLOptions): Promise<void> {
  const yoga = await createGraphQL({ ...options, log: app.log });
  mountGraphQLWs(app, yoga, { verifier, trusted: trustedDocumentsPolicy(options.production ?? false, options.trustedDocuments ?? null) });
  // Idempotency-Key applies to mutations, and only an answer without errors is kept for replays.
  const idempotent = idempotencyHooks(options.db, {
    applies: (request) => isMutationRequest(request, options.trustedDocuments ?? null),
    succeeded: (payload) => !hasGraphQLErrors(payload),
  });
  app.route({
    // Errors raised before Yoga runs (rate limit, idempotency, a bad body) still answer as GraphQL.
    errorHandler: errorHandler(sendGraphQLErrors, 'graphql'),
    preHandler: idempotent.preHandler,
    onSend: idempotent.onSend,
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST'],
    // GraphQL over HTTP has no HEAD: Yoga would refuse it after Fastify routed it, and OPTIONS's Allow would list it.
    exposeHeadRoute: false,
    // GraphQL is described by its schema (introspection, GraphiQL, docs/graphql.md), not by the REST document.
    schema: { hide: true },
    handler: async (req, reply) => {
      // GraphQL over HTTP: a POST body is a JSON object. Yoga would read `[]`, `1` or `null` as an empty body.
      if (req.method === 'POST' && (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))) {
        throw new AppError('VALIDATION_FAILED', 'The request body must be a JSON object.');
      }
      const fast = fastPath ? fastPathRequest(req) : null;
      const answer = fast ? await fastPathResponse(yoga, req, reply, fast) : await yogaWholePath(yoga, req, reply);
      // A POST may run createKey, whose answer holds a secret: no cache on the way may keep any POST answer.
      if (req.method === 'POST') reply.header('Cache-Control', NO_STORE);
      if (answer instanceof PlainAnswer) return reply.type(answer.contentType).send(answer.body);
      return sendYogaResponse(reply, answer);
    },
  });
}

const STREAM_ONLY = new AppError(
  'NOT_ACCEPTABLE',
  'A subscription is answered as a stream of events: send Accept: text/event-stream (GraphQL over SSE) or multipart/mixed (Apollo Client), or subscribe over WebSocket (graphql-ws).',
);

/** Sends a Fetch API Response from Yoga through Fastify, so the route's onSend hooks see it. */
async function sendYogaResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  // Yoga answers an Accept header it cannot serve (a browser asking for a page where GraphiQL is
  // off, a subscription asked for as JSON) with an empty 406 whose Accept lists what it could send.
  if (response.status === 406) {
    await response.body?.cancel();
    const streamsOnly = !(response.headers.get('accept') ?? 'application/json').includes('application/json');
    return sendErrorBody(reply, streamsOnly ? STREAM_ONLY : new AppError('NOT_ACCEPTABLE'));
  }
  response.headers.forEach((value, key) => {
    reply.header(key, value);
  });
  reply.status(response.status);
  // A subscription's stream (SSE or multipart) goes out as it comes. (The type first: reading `body` makes a stream.)
  if (/^(text\/event-stream|multipart\/mixed)/.test(response.headers.get('content-type') ?? '') && response.body) {
    // A proxy that buffers answers (nginx) would hold events back: this one goes out as written.
    reply.header('X-Accel-Buffering', 'no');
    // Yoga's body is its fetch ponyfill's stream, which Readable.fromWeb refuses; it is async-iterable.
    return reply.send(Readable.from(response.body as unknown as AsyncIterable<Uint8Array>, { objectMode: false }));
  }
  // Buffered, not streamed: answers are small JSON, and onSend hooks (idempotency) need the text.
  return reply.send(await response.text());
}
