import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/load-config.ts';
import type { Credentials } from './auth/credentials.ts';
import { useErrorBody } from './errors/error-handler.ts';
import type { RateLimitChecks } from './limits/rate-limit-checks.ts';
import { useRequestTracing } from './logging/use-request-tracing.ts';
import { edgePass } from './edge-pass.ts';
import { useGracefulDrain } from './lifecycle/use-graceful-drain.ts';
import { useCompression } from './caching/use-compression.ts';
import { useMethodNotAllowed } from './errors/use-method-not-allowed.ts';
import { useSecurityHeaders } from './use-security-headers.ts';

const EXPOSED_HEADERS = [
  'Link',
  'WWW-Authenticate',
  'Location',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-Request-Id',
  'Deprecation',
  'Sunset',
  'X-API-Stability',
];

export interface HttpEdgeOptions {
  config: Config;
  credentials: Credentials;
  limits: RateLimitChecks;
  /** A server span per request (use-request-tracing.ts). */
  tracing: boolean;
  /** URL prefixes of routes others declare (the docs page) whose answers may be large enough to compress. */
  largeUnder?: readonly string[];
}

/**
 * What every request meets before either face sees it, and every answer carries: the form
 * checks, who is calling and their rate limit, security headers, the error body, 404/405,
 * CORS, and the graceful drain. Register it before any route.
 */
export async function useHttpEdge(
  app: FastifyInstance,
  { config, credentials, limits, tracing, largeUnder = [] }: HttpEdgeOptions,
): Promise<void> {
  app.decorateRequest('principal', null);
  app.decorateRequest('authRefusal', null);
  app.decorateRequest('edgeRefusal', null);
  app.decorateRequest('probe', false);
  app.decorateRequest('idempotency', null);
  app.decorateRequest('access', null);
  app.decorateRequest('reads', null);
  app.decorateRequest('operation', null);
  app.decorateRequest('serverSpan', null);
  if (tracing) useRequestTracing(app);
  useSecurityHeaders(app);
  app.addHook(
    'onRequest',
    edgePass({ credentials, rateLimit: limits.request, newAccount: (request, reply) => limits.newAccount(request.ip, reply) }),
  );
  useGracefulDrain(app, { delayMs: config.shutdownDelayMs });
  useErrorBody(app);
  useMethodNotAllowed(app);
  await useCompression(app, { minBytes: config.compressMinBytes, largeUnder });
  // CORS is off unless origins are listed; then preflight OPTIONS belongs to it, not to the 405s.
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
      // traceparent and tracestate: a browser's OpenTelemetry (fetch instrumentation) sends them, and its preflight must allow them.
      // MCP's own headers: an agent in a browser (the MCP Inspector's page) sends them to /mcp.
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'Idempotency-Key',
        'X-Request-Id',
        'traceparent',
        'tracestate',
        'Mcp-Protocol-Version',
        'Mcp-Method',
        'Mcp-Name',
      ],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    });
  }
}
