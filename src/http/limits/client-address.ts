import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * The client's address for a request that does not pass through Fastify's request object (a
 * WebSocket upgrade), found as Fastify finds `request.ip`: the peer, or with TRUST_PROXY the
 * last address in X-Forwarded-For that a trusted proxy added. One budget per client, whatever
 * the transport.
 */
export function clientAddressOf(trustProxy: false | readonly string[]): (request: IncomingMessage) => string {
  if (!trustProxy) return (request) => request.socket.remoteAddress ?? '';
  const trusted = proxyAddr.compile([...trustProxy]);
  return (request) => proxyAddr(request, trusted);
}
