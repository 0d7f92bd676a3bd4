import type { ExecutionResult, GraphQLError } from 'graphql';

/**
 * A result as a client sees it in a stream: no `extensions.http` (how to answer the request) nor
 * `extensions.unexpected`, and no `extensions` left empty by their removal, as Yoga's processors
 * write a result.
 */
export function shownResult(result: ExecutionResult): ExecutionResult | Record<string, unknown> {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((error: GraphQLError) => {
    const { extensions: all, ...rest } = error.toJSON();
    const { http: _http, unexpected: _unexpected, ...extensions } = all ?? {};
    return Object.keys(extensions).length > 0 ? { ...rest, extensions } : rest;
  });
  return { ...result, errors };
}
