import { GraphQLError, parse } from 'graphql';
import type { DocumentNode } from 'graphql';
import { AppError } from '../errors/index.ts';
import { boundedLru } from '../util/bounded-lru.ts';
import { codedError, fromAppError } from './coded-error.ts';
import { limitViolation } from './document-limits.ts';
import { GRAPHQL_LIMITS } from './graphql-limits.ts';

/**
 * What a parsed document holds in memory, per character of its text: graphql-js keeps every
 * token (with its location) behind the nodes. Measured at about 100 bytes a character for a
 * dense operation; less with comments or long strings, so this errs on the side of fewer kept.
 */
const HEAP_BYTES_PER_CHARACTER = 100;

export interface DocumentParser {
  /**
   * The document `text` parses to, within every limit (graphql-limits.ts), or the coded error to
   * answer with (thrown): too large, too many tokens, not GraphQL, over a limit. Remembered by
   * text, so each document is parsed and checked once, whoever asks first: the response cache
   * before the route runs, the route (JSON or a stream), a WebSocket subscribe, MCP's tools.
   */
  parse(text: string): DocumentNode;
  /** The estimated memory of the documents and refusals remembered now. */
  cachedBytes(): number;
}

/** Limits before work: the size first (no parse of an oversized text), then tokens while parsing, then one linear walk. */
export function documentParser({ maxCacheBytes }: { maxCacheBytes: number }): DocumentParser {
  const known = boundedLru<DocumentNode | GraphQLError>(maxCacheBytes);
  return {
    parse(text) {
      let found = known.get(text);
      if (found === undefined) {
        found = parseWithinLimits(text);
        known.set(text, found, HEAP_BYTES_PER_CHARACTER * text.length);
      }
      if (found instanceof GraphQLError) throw found;
      return found;
    },
    cachedBytes: () => known.bytes,
  };
}

/** A refusal of the document itself: 200 under application/json, as GraphQL over HTTP asks (coded-error.ts). */
const DOCUMENT = { documentError: true };

function parseWithinLimits(text: string): DocumentNode | GraphQLError {
  // A UTF-8 character is at most 3 bytes per UTF-16 unit: the exact count only where it could matter.
  const bytes = text.length * 3 <= GRAPHQL_LIMITS.maxBytes ? text.length : Buffer.byteLength(text);
  if (bytes > GRAPHQL_LIMITS.maxBytes) {
    return fromAppError(AppError.of('QUERY_TOO_COMPLEX', 'graphqlBytes', { bytes, max: GRAPHQL_LIMITS.maxBytes }), null, DOCUMENT);
  }
  let document: DocumentNode;
  try {
    document = parse(text, { maxTokens: GRAPHQL_LIMITS.maxTokens });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    if (/contains more tha[nt] \d+ tokens/.test(error.message)) {
      return fromAppError(AppError.of('QUERY_TOO_COMPLEX', 'graphqlTokens', { max: GRAPHQL_LIMITS.maxTokens }), null, DOCUMENT);
    }
    return codedError(error.message, 'GRAPHQL_PARSE_FAILED', 400, { from: error, requestLevel: true, ...DOCUMENT });
  }
  const violation = limitViolation(document);
  return violation ? fromAppError(violation, null, DOCUMENT) : document;
}
