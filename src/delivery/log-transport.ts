import type { FastifyBaseLogger } from 'fastify';
import type { Transport } from './transport.ts';

/** The default: a log line per message. Stands in for a real provider in development. */
export function logTransport(log: FastifyBaseLogger): Transport {
  return {
    name: 'log',
    async deliver(message) {
      log.info({ messageId: message.id, length: message.message.length }, 'message delivered (log transport)');
    },
  };
}
