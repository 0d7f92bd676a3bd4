import { GraphQLError } from 'graphql';
import { AppError } from '../errors/index.ts';
import type { ErrorCode } from '../errors/index.ts';

function appErrorIn(error: unknown): AppError | null {
  for (let current = error; current instanceof Error; current = current instanceof GraphQLError ? current.originalError : undefined) {
    if (current instanceof AppError) return current;
  }
  return null;
}

function withCode(error: GraphQLError, message: string, code: ErrorCode, status: number, http?: object): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code, status, ...(http ? { http } : {}) },
  });
}

/**
 * The one boundary where GraphQL errors get their public shape: the same codes as
 * REST's Error body in `extensions.code` and `extensions.status`. Domain errors keep
 * their message; request errors (syntax, validation, limits) are 400 whatever the
 * Accept header; anything unexpected becomes "Unexpected error.".
 */
export function maskError(error: unknown): Error {
  const appError = appErrorIn(error);
  const graphQLError = error instanceof GraphQLError ? error : null;
  if (appError && appError.code !== 'INTERNAL_ERROR') {
    const base = graphQLError ?? new GraphQLError(appError.message);
    // Refused before any field ran (no path), the whole request answers with the error's status, as REST would.
    const requestLevel = !base.path || base.path.length === 0;
    return withCode(base, appError.message, appError.code, appError.status, requestLevel ? { status: appError.status, spec: false } : undefined);
  }
  // A GraphQLError with no other kind of error inside comes from graphql-js, the scalars, armor or our own plugins.
  const requestError = graphQLError !== null && (!graphQLError.originalError || graphQLError.originalError instanceof GraphQLError);
  if (!appError && requestError) {
    if (typeof graphQLError.extensions.status === 'number') return graphQLError;
    const code: ErrorCode = / limit of \d+ exceeded/.test(graphQLError.message)
      ? 'QUERY_TOO_COMPLEX'
      : graphQLError.message.startsWith('Syntax Error')
        ? 'GRAPHQL_PARSE_FAILED'
        : 'VALIDATION_FAILED';
    // spec: false stops Yoga from answering 200 to `Accept: application/json` clients.
    return withCode(graphQLError, graphQLError.message, code, 400, { status: 400, spec: false });
  }
  return new GraphQLError('Unexpected error.', {
    nodes: graphQLError?.nodes,
    path: graphQLError?.path,
    extensions: { code: 'INTERNAL_ERROR', status: 500 },
  });
}
