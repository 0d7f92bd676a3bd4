import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { routeTemplate } from '../route-config.ts';
import { TRACER_NAME } from '../../telemetry/spans.ts';

/**
 * A server span per request while tracing is on, continuing the caller's trace when it sends a
 * W3C `traceparent`. The span is active for the rest of the request: the later hooks and the
 * handler run inside it, and the raw request and response are bound to it, so what their events
 * start (the body being read) belongs to it too. Named `METHOD /route` (a GraphQL request by its
 * operation, operation-spans.ts), ended when the response is done. Balancers' probes are not traced.
 */
export function useRequestTracing(app: FastifyInstance): void {
  const tracer = trace.getTracer(TRACER_NAME);
  app.addHook('onRequest', (request, reply, done) => {
    const { url, config } = request.routeOptions;
    // A balancer probes each instance twice a second: a trace each would bury the real ones.
    if (config.probe) return done();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = routeTemplate(url);
    const span = tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': request.url.split('?')[0],
          'url.scheme': request.protocol,
          ...(route ? { 'http.route': route } : {}),
          'client.address': request.ip,
          'petstore.request_id': request.id,
        },
      },
      parent,
    );
    request.serverSpan = span;
    reply.raw.once('close', () => {
      const status = reply.raw.statusCode;
      span.setAttribute('http.response.status_code', status);
      if (request.principal)
        span.setAttributes({
          'petstore.account_id': request.principal.accountId,
          ...(request.principal.keyId === null ? {} : { 'petstore.key_id': request.principal.keyId }),
          ...(request.principal.token ? { 'petstore.token_subject': request.principal.token.subject } : {}),
        });
      if (status >= 500 || !reply.raw.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    const active = trace.setSpan(parent, span);
    context.bind(active, request.raw);
    context.bind(active, reply.raw);
    context.with(active, done);
  });
}
