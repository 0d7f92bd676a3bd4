import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long, and how much more of a refused body, is read and dropped after the answer went out. */
const LINGER_MS = 5_000;
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * An answer given before the body was read (too large, wrong content type) is sent with
 * `Connection: close`, and node then closes the socket while the client is still sending:
 * the client's next write gets EPIPE or a reset, often before it has read the answer. As
 * nginx's lingering close does, the rest of the body is read and dropped instead, for at most
 * LINGER_MS and LINGER_BYTES; a client that sends more, or longer, has its connection closed.
 * A body that ends within the bound leaves the connection in step, so it stays open.
 */
export function lingerOnUnreadBody(request: FastifyRequest, reply: FastifyReply): void {
  const incoming = request.raw;
  if (incoming.complete || reply.getHeader('connection') !== 'close') return;
  reply.removeHeader('connection');
  reply.raw.once('finish', () => {
    if (incoming.complete) return;
    // Destroying the request destroys its socket (and works on inject's socket-less requests too).
    const close = () => incoming.destroy();
    let dropped = 0;
    const timer = setTimeout(close, LINGER_MS).unref();
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) close();
    };
    incoming.on('data', onData);
    incoming.once('close', () => {
      clearTimeout(timer);
      incoming.off('data', onData);
    });
    incoming.resume();
  });
}
