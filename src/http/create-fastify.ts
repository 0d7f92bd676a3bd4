import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/load-config.ts';
import { NO_METRICS } from '../telemetry/metrics-types.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';
import { AccessLogController } from './logging/access-log.ts';
import { clientErrorHandler, refuseConnect } from './errors/client-error-handler.ts';
import { handleError } from './errors/error-handler.ts';
import { useJsonBodyParser } from './limits/json-body-parser.ts';
import { bufferedStdout } from './logging/log-destination.ts';
import { lazyRequestLog } from './logging/request-log.ts';
import type { LogDestination } from './logging/log-destination.ts';

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
  const logController = new AccessLogController({ requestIdLogLabel: 'requestId' }, { logProbes: config.logProbes, metrics });
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
    logController,
    childLoggerFactory: lazyRequestLog,
    frameworkErrors: handleError,
    clientErrorHandler,
  });
  logController.serve(app.server);
  app.server.maxConnections = config.limits.maxConnections;
  app.server.on('connect', refuseConnect);
  // JSON is the only body this API reads; anything else is refused with INVALID_CONTENT_TYPE.
  app.removeContentTypeParser('text/plain');
  useJsonBodyParser(app);
  return { app, log };
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** A caller's X-Request-Id is kept when it is short and plain (so it can be traced end to end); otherwise a UUID. */
function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
}
