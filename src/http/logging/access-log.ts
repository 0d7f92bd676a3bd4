import { LogController } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '../../telemetry/metrics-types.ts';
import type { Exchange } from '../exchange.ts';
import { routeTemplateOf } from '../route-config.ts';
import { RequestLog } from './request-log.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** What a face that carries many operations on one route ran, for the access line (MCP: `tools/call add_pet`). */
    operation: string | null;
  }
}

export interface AccessLogOptions {
  /**
   * Probe lines (routes with `config.probe`, marked by identifyAndCount) at info, as any request (LOG_PROBES); else at debug:
   * a balancer probes each instance twice a second behind the committed HAProxy config.
   */
  logProbes: boolean;
  /** Each request's duration, by route, method and status (NO_METRICS while metrics are off). */
  metrics: Metrics;
}

const STREAMS = /^(text\/event-stream|multipart\/mixed)/;

/**
 * The one access line's fields, whichever transport answered the exchange (an HTTP request here,
 * a socket's subscribe in graphql/mount-graphql-ws.ts): what was asked, what came of it, how long
 * it took, who called (never with what: neither a key's secret nor a token is ever logged), what
 * it ran where one route runs many, and, while tracing, the trace to find its spans by.
 */
export function accessLine(
  exchange: Pick<Exchange, 'ip' | 'principal' | 'serverSpan'> & { id?: string },
  method: string,
  url: string,
  status: number,
  ms: number,
  operation: string | null,
) {
  const { principal } = exchange;
  return {
    // First, where a request logger's binding would put it: the line goes through the root (request-log.ts).
    requestId: exchange.id,
    method,
    url,
    status,
    ms: Math.round(ms * 10) / 10,
    ip: exchange.ip,
    accountId: principal?.accountId,
    keyId: principal?.keyId ?? undefined,
    // An access token's holder, as its issuer names them.
    subject: principal?.token?.subject,
    operation: operation ?? undefined,
    traceId: exchange.serverSpan?.spanContext().traceId,
  };
}

/** Each app's controller, by the app's node server (the one thing every encapsulated instance of it shares). */
const byServer = new WeakMap<object, AccessLogController>();

/**
 * What is recorded when a request completes: one compact access line, instead of Fastify's two
 * (incoming + completed, each serialising the whole request), and its observation in the
 * request metrics. Fastify calls this for every answered request; an onResponse hook doing the
 * same cost ~3 µs a request more (measured side by side, docs/observability.md). A subscription's
 * stream is left out of the metrics: it lasts as long as the client listens, which says nothing
 * of latency (petstore_subscriptions_open counts streams).
 */
export class AccessLogController extends LogController {
  readonly #logProbes: boolean;
  readonly #metrics: Metrics;

  constructor(options: ConstructorParameters<typeof LogController>[0], { logProbes, metrics }: AccessLogOptions) {
    super(options);
    this.#logProbes = logProbes;
    this.#metrics = metrics;
  }

  /** Makes this the controller lineWhenClosedEarly finds for the app listening on `server`. */
  serve(server: object): void {
    byServer.set(server, this);
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, url: request.url }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const ms = reply.elapsedTime;
    if (this.#metrics.enabled && !STREAMS.test(String(reply.getHeader('content-type') ?? ''))) {
      this.#metrics.request(routeTemplateOf(request), request.method, reply.statusCode, ms / 1000);
    }
    const line = accessLine(request, request.method, request.url, reply.statusCode, ms, request.operation);
    // Not through the request's own logger, which would be made for this line alone.
    const log = RequestLog.rootOf(request.log);
    if (error) log.error({ ...line, err: error }, 'request errored');
    else if (request.probe && !this.#logProbes && reply.statusCode < 500) log.debug(line, 'request');
    else log.info(line, 'request');
  }
}

/**
 * A stream's access line when its client closes it before it ends (a page left, an EventSource
 * closed): Fastify completes a request only once its answer has finished, so such a stream would
 * have no line at all. Called by whoever sends a stream, once, as it starts.
 */
export function lineWhenClosedEarly(reply: FastifyReply): void {
  const controller = byServer.get(reply.server.server);
  if (!controller) return;
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.requestCompleted(null, reply.request, reply);
  });
}
