import { GraphQLError } from 'graphql';
import { AppError } from '../errors/index.ts';
import type { ErrorCode } from '../errors/index.ts';

function appErrorIn(error: unknown): AppError | null {
  for (let current = error; current instanceof Error; current = current instanceof GraphQLError ? current.originalError : undefined) {
    if (current instanceof AppError) return current;
  }
  return null;
}

interface HttpExtension {
  status?: number;
  headers?: Record<string, string>;
}

/** Codes for the HTTP statuses Yoga sets where it refuses a request (405 mutation over GET, 413, …). */
const CODE_FOR_STATUS: Record<number, ErrorCode> = {
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
};

function withCode(error: GraphQLError, message: string, code: ErrorCode, status: number, http?: HttpExtension): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    // Only ours: nothing a library attached (its own code, originalError) reaches the client.
    extensions: { code, status, ...(http ? { http } : {}) },
  });
}

/** graphql-js offers "Did you mean …?" for mistyped fields, enum values and input fields, which leaks the schema. */
const SUGGESTION = / ?Did you mean [^?]*\?/g;

export interface MaskErrorOptions {
  /** Production strips "Did you mean …?" from every message, the schema being private there. */
  production?: boolean;
}

/**
 * The one boundary where GraphQL errors get their public shape: the same codes as
 * REST's Error body in `extensions.code` and `extensions.status`. Domain errors keep
 * their message; request errors (syntax, validation, limits) are 400 whatever the
 * Accept header, or the status Yoga set where it refused; anything unexpected becomes
 * "Unexpected error.".
 */
export function createMaskError({ production = false }: MaskErrorOptions = {}): (error: unknown) => Error {
  const words = (message: string) => (production ? message.replace(SUGGESTION, '') : message);
  return function maskError(error) {
    const appError = appErrorIn(error);
    const graphQLError = error instanceof GraphQLError ? error : null;
    if (appError && appError.code !== 'INTERNAL_ERROR') {
      const base = graphQLError ?? new GraphQLError(appError.message);
      // Refused before any field ran (no path), the whole request answers with the error's status, as REST would.
      const requestLevel = !base.path || base.path.length === 0;
      return withCode(base, appError.message, appError.code, appError.status, requestLevel ? { status: appError.status } : undefined);
    }
    // A GraphQLError with no other kind of error inside comes from graphql-js, the scalars, armor, Yoga or our own plugins.
    const requestError = graphQLError !== null && (!graphQLError.originalError || graphQLError.originalError instanceof GraphQLError);
    if (!appError && requestError) {
      if (typeof graphQLError.extensions.status === 'number') return graphQLError;
      const http = graphQLError.extensions.http as HttpExtension | undefined;
      const yogaCode = http?.status ? CODE_FOR_STATUS[http.status] : undefined;
      if (yogaCode && http?.status)
        return withCode(graphQLError, words(graphQLError.message), yogaCode, http.status, {
          status: http.status,
          headers: http.headers ?? {},
        });
      const code: ErrorCode = / limit of \d+ exceeded/.test(graphQLError.message)
        ? 'QUERY_TOO_COMPLEX'
        : graphQLError.message.startsWith('Syntax Error')
          ? 'GRAPHQL_PARSE_FAILED'
          : 'VALIDATION_FAILED';
      // An explicit status stops Yoga from answering 200 to `Accept: application/json` clients.
      return withCode(graphQLError, words(graphQLError.message), code, 400, { status: 400 });
    }
    return new GraphQLError('Unexpected error.', {
      nodes: graphQLError?.nodes,
      path: graphQLError?.path,
      extensions: { code: 'INTERNAL_ERROR', status: 500 },
    });
  };
}
