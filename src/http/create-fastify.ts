import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/load-config.ts';
import { NO_METRICS } from '../telemetry/metrics-types.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';
import { AccessLogController } from './access-log.ts';
import { clientErrorHandler, refuseConnect } from './client-error-handler.ts';
import { handleError } from './error-handler.ts';
import { useJsonBodyParser } from './json-body-parser.ts';
import { bufferedStdout } from './log-destination.ts';
import type { LogDestination } from './log-destination.ts';
import { genRequestId } from './request-id.ts';

export interface LogStream {
  write(line: string): void;
}

/**
 * The Fastify instance both faces are served from, with the limits of the HTTP server
 * itself: body size, the time a whole request may take, open connections, and the Error
 * body even for what node refuses before Fastify sees it.
 */
export function createFastify(
  config: Config,
  { logStream, metrics = NO_METRICS }: { logStream?: LogStream; metrics?: Metrics } = {},
): { app: FastifyInstance; log: LogDestination | null } {
  const log = logStream ? null : bufferedStdout();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // No request headers are logged; this keeps a key out of the log if one ever is.
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
      stream: logStream ?? log ?? undefined,
    },
    bodyLimit: 1024 * 1024,
    // The whole request, headers and body, must arrive within this time, else 408 (clientErrorHandler).
    requestTimeout: config.limits.requestTimeoutMs,
    http: {
      headersTimeout: config.limits.requestTimeoutMs,
      // How often node looks for requests past their time: the timeout's precision.
      connectionsCheckingInterval: Math.min(1000, config.limits.requestTimeoutMs),
      // Checked by useRequestChecks, which answers with the Error body; node's check answers with none.
      requireHostHeader: false,
    },
    // Off by default: then X-Forwarded-For changes nothing; on, it gives request.ip behind those proxies.
    trustProxy: config.trustProxy,
    genReqId: genRequestId,
    requestIdHeader: false,
    logController: new AccessLogController({ requestIdLogLabel: 'requestId' }, { logProbes: config.logProbes, metrics }),
    frameworkErrors: handleError,
    clientErrorHandler,
  });
  app.server.maxConnections = config.limits.maxConnections;
  app.server.on('connect', refuseConnect);
  // JSON is the only body this API reads; anything else is refused with INVALID_CONTENT_TYPE.
  app.removeContentTypeParser('text/plain');
  useJsonBodyParser(app);
  return { app, log };
}
