import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/index.ts';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/** A charset other than UTF-8 (any case, quoted or not); none at all is fine. JSON has no other encoding (RFC 8259 §8.1). */
function otherCharset(contentType: string): boolean {
  const charset = CHARSET.exec(contentType)?.[1];
  return charset !== undefined && charset.toLowerCase() !== 'utf-8';
}

/**
 * The form of a request, checked once for every route before anything reads it: HTTP/1.1
 * needs a Host header (RFC 9112 §3.2; node's own check answers with an empty body, so it is
 * off and this one answers with the Error body), and a JSON body must be UTF-8, not parsed
 * as UTF-8 whatever its charset says.
 */
export function useRequestChecks(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersionMinor === 1 && request.headers.host === undefined) {
      done(AppError.of('BAD_REQUEST', 'noHost'));
      return;
    }
    const type = request.headers['content-type'];
    if (type !== undefined && otherCharset(type)) {
      done(AppError.of('INVALID_CONTENT_TYPE', 'charset'));
      return;
    }
    done();
  });
}
