import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/index.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';

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
 * Fastify's own JSON parser (prototype poisoning refused), after two checks of the text: it must
 * be UTF-8 (a byte sequence that is not would be stored with U+FFFD in its place, changing what
 * the client sent), and nest at most MAX_JSON_DEPTH levels (a deeper value would exhaust the
 * stack of whatever walks it). A body refused for a key that would reach an object's prototype
 * is not called invalid JSON: it was valid, and the answer names the key.
 */
export function useJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw: Buffer, done) => {
    let body: string;
    try {
      body = utf8.decode(raw);
    } catch {
      return done(AppError.of('INVALID_JSON', 'notUtf8'), undefined);
    }
    if (nestsDeeperThan(body)) return done(AppError.of('VALIDATION_FAILED', 'jsonTooDeep', { max: MAX_JSON_DEPTH }), undefined);
    parse(request, body, (error, value) => {
      if (error && parses(body)) done(AppError.of('VALIDATION_FAILED', 'prototypeKey'), undefined);
      else done(error, value);
    });
  });
}
