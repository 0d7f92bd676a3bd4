import type { Plugin } from 'graphql-yoga';
import type { DocumentParser } from '../parse-document.ts';

/**
 * Every document Yoga runs (over HTTP and WebSocket alike) is parsed by `documents`: within the
 * limits, coded where refused, and remembered by text in one bounded cache that the response
 * cache reads too, so a document is parsed and checked once.
 */
export function useDocumentLimits<Context extends object>(documents: DocumentParser): Plugin<Context> {
  return {
    onParse({ setParseFn }) {
      setParseFn((source) => documents.parse(typeof source === 'string' ? source : source.body));
    },
  };
}
