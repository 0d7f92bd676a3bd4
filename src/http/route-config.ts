import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import type { MaybePromise } from './maybe-promise.ts';
import { memo } from '../util/memo.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** A balancer's probe (its route's `config.probe`): not identified, not counted, its access line at debug. */
    probe: boolean;
  }
  interface FastifyContextConfig {
    /** Marks a balancer's health probe. */
    probe?: boolean;
    /**
     * A page's static asset (the docs page's scripts and styles, GraphiQL's): served from memory,
     * kept by browsers, and not counted against any rate-limit budget, so loading the pages does
     * not spend what an address without a key may ask of the API.
     */
    asset?: boolean;
    /**
     * A route that answers the edge's refusal (a spent budget) once it has read its request: the
     * edge still counts the request before its body is read, but keeps the refusal on the request
     * (`edgeRefusal`) for the route to throw. MCP's: its answer names the JSON-RPC request's id,
     * and a refused tool call is a tool result the agent's model reads.
     */
    refusedOnceRead?: boolean;
  }
}

const templateOf = memo((url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'));

/** `/v1/pets/:petId` → `/v1/pets/{petId}`, once per route: as OpenAPI and OpenTelemetry write a route. */
export function routeTemplate(url: string | undefined): string {
  return url ? templateOf(url) : '';
}

/**
 * The matched route's template ('' when none matched). Fastify's `request.routeOptions` builds a
 * new object on every read, so only the metrics and the traces ask, and only while they are on.
 */
export const routeTemplateOf = (request: FastifyRequest): string => routeTemplate(request.routeOptions.url);

/** Where GraphQL is served: the one route of the GraphQL face, as metrics and errors tell the faces apart. */
export const GRAPHQL_ROUTE = '/graphql';

/** Where agents reach the MCP face: its one route. */
export const MCP_ROUTE = '/mcp';

type RouteHooks = Pick<RouteOptions, 'preHandler' | 'onSend'>;

/** From an `onRoute` hook: runs these after the route's own hooks, so a plugin hooks only the routes it serves. */
export function addRouteHooks(route: RouteOptions, { preHandler, onSend }: RouteHooks): void {
  if (preHandler) route.preHandler = [...listOf(route.preHandler), ...listOf(preHandler)];
  if (onSend) route.onSend = [...listOf(route.onSend), ...listOf(onSend)];
}

/** From an `onRoute` hook: runs `onSend` before the route's other onSend hooks (compression's among them), to see the answer as the route made it. */
export function addFirstOnSend(route: RouteOptions, onSend: NonNullable<RouteOptions['onSend']>): void {
  route.onSend = [...listOf(onSend), ...listOf(route.onSend)];
}

function listOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** What a callback-style preHandler does once it has `value`: it calls `done`, or sends the answer and does not. */
export type HookStep<T> = (request: FastifyRequest, reply: FastifyReply, value: T, done: HookHandlerDoneFunction) => void;

/**
 * Runs `step` with `value` now, or once it arrives: a callback-style preHandler passes without a
 * promise when it has nothing to wait for (docs/performance.md, promises a request). A rejection,
 * or what `step` throws, goes to `done`: in a promise's continuation a throw would be a rejection
 * no one handles. `done` itself never throws (Fastify catches what the hooks and handler after it
 * throw), so it is never called twice.
 */
export function stepWhenReady<T>(
  value: MaybePromise<T>,
  step: HookStep<T>,
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (value instanceof Promise) value.then((ready) => stepNow(step, request, reply, ready, done), done);
  else stepNow(step, request, reply, value, done);
}

function stepNow<T>(step: HookStep<T>, request: FastifyRequest, reply: FastifyReply, value: T, done: HookHandlerDoneFunction): void {
  try {
    step(request, reply, value, done);
  } catch (error) {
    done(error as Error);
  }
}
