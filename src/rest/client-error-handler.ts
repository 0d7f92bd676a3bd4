import type { Socket } from 'node:net';
import { toErrorBody, AppError } from '../errors/index.ts';

/**
 * Node rejects some requests before Fastify sees them (headers over 16 KiB, malformed
 * HTTP). They still get the Error body, then the connection closes.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('HEADERS_TOO_LARGE')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('REQUEST_TIMEOUT')
        : new AppError('BAD_REQUEST');
  const body = JSON.stringify(toErrorBody(appError));
  socket.end(
    `HTTP/1.1 ${appError.status} ${appError.code.replaceAll('_', ' ')}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
