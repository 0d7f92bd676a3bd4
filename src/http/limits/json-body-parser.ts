import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/index.ts';

/** Whether `text` is JSON at all: asked only of a body Fastify's parser refused. */
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Fastify's own JSON parser (prototype poisoning refused), except that a body it refuses for a
 * key that would reach an object's prototype is not called invalid JSON: it was valid, and the
 * answer names the key.
 */
export function useJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    parse(request, body, (error, value) => {
      if (error && parses(body)) done(AppError.of('VALIDATION_FAILED', 'prototypeKey'), undefined);
      else done(error, value);
    });
  });
}
