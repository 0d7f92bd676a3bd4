import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { toErrorBody, AppError } from '../../errors/index.ts';

/** An Error body written straight to the socket, for answers node gives before Fastify sees a request; then the connection closes. */
function writeRaw(socket: Duplex, error: AppError, headers = ''): void {
  if (!socket.writable) return;
  const body = JSON.stringify(toErrorBody(error));
  socket.end(
    `HTTP/1.1 ${error.status} ${error.code.replaceAll('_', ' ')}\r\nContent-Type: application/json; charset=utf-8\r\n${headers}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Node rejects some requests before Fastify sees them (headers over 16 KiB, too slow,
 * malformed HTTP). They still get the Error body, then the connection closes.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  writeRaw(
    socket,
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('HEADERS_TOO_LARGE')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('REQUEST_TIMEOUT')
        : new AppError('BAD_REQUEST'),
  );
}

/** CONNECT asks for a tunnel, which node hands to a `connect` listener, not to the routes. This is no proxy: 405. */
export function refuseConnect(request: IncomingMessage, socket: Duplex): void {
  writeRaw(
    socket,
    AppError.of('METHOD_NOT_ALLOWED', 'connect', { target: request.url ?? '/' }),
    'Allow: GET, HEAD, POST, PATCH, DELETE\r\n',
  );
}
