import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLContext } from './context.ts';
import type { ServerContext } from './create-graphql.ts';
import type { YogaServerInstance } from 'graphql-yoga';

/**
 * A request through all of Yoga's HTTP handling, from what Fastify has already read.
 * whatwg-node takes an empty parsed body for "not parsed" and would wait on the stream
 * Fastify has consumed: it gets that body as text instead.
 */
export function yogaWholePath(
  yoga: YogaServerInstance<ServerContext, GraphQLContext>,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<Response> {
  if (req.method === 'POST' && Object.keys(req.body as object).length === 0) req.body = '{}';
  return yoga.handleNodeRequestAndResponse(req, reply, { req, reply }) as Promise<Response>;
}
