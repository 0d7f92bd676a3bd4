import { isAsyncIterable } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import { GraphQLError } from 'graphql';

/**
 * Subscriptions refused before a stream starts, and streams no client will read.
 * - A subscription whose field refused it (TOO_MANY_SUBSCRIPTIONS, MESSAGE_NOT_FOUND, a bad
 *   argument) has no data at all: the refusal is the whole answer, so the HTTP status and
 *   headers are the refusal's (429 with Retry-After, 404, 400), as for a query refused before it ran.
 * - A stream opened for a client that accepts no streaming media type (406) is returned at
 *   once, so it gives back its slot in the per-key cap. Register after every plugin that may
 *   choose a result processor.
 */
export function useSubscriptionRefusals<Context extends object>(): Plugin<Context> {
  return {
    onSubscribe: () => ({
      onSubscribeResult({ result, setResult }) {
        if (isAsyncIterable(result) || !result.errors?.length) return;
        // Before masking (registered ahead of it), so the mask sees request errors, with no path.
        setResult({ ...result, errors: result.errors.map(asRequestError) });
      },
    }),
    onResultProcess({ result, resultProcessor }) {
      if (isAsyncIterable(result) && !resultProcessor) void result[Symbol.asyncIterator]().return?.();
    },
  };
}

/**
 * The spec's word for an error creating the source stream is a request error: no data, no path.
 * graphql-js gives it the field's path, which would make it a field error with HTTP 200 (or 500).
 */
function asRequestError(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, { nodes: error.nodes, originalError: error.originalError, extensions: error.extensions });
}
