import { GraphQLError } from 'graphql';
import { errorMessage } from '../errors/index.ts';
import type { AppError, ErrorCode } from '../errors/index.ts';
import { appErrorOf } from '../services/app-error-of.ts';
import { codedError, fromAppError } from './coded-error.ts';

function appErrorIn(error: unknown): AppError | null {
  for (let current = error; current instanceof Error; current = current instanceof GraphQLError ? current.originalError : undefined) {
    const known = appErrorOf(current);
    if (known) return known;
  }
  return null;
}

/** A GraphQLError with no other kind of error inside: from graphql-js, the scalars, armor, Yoga or our own plugins. */
function isGraphQLOwn(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError);
}

/**
 * Whether the mask turns an error into INTERNAL_ERROR: the one rule for the mask and for the
 * log of unexpected errors (use-log-unexpected-errors.ts).
 */
export function isUnexpected(error: unknown): boolean {
  const appError = appErrorIn(error);
  return appError ? appError.code === 'INTERNAL_ERROR' : !isGraphQLOwn(error);
}

/** Codes for the HTTP statuses Yoga sets where it refuses a request (405 mutation over GET, 406, 413). */
const CODE_FOR_STATUS: Record<number, ErrorCode> = {
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
};

/** graphql-js offers "Did you mean …?" for mistyped fields, enum values and input fields, which leaks the schema. */
const SUGGESTION = / ?Did you mean [^?]*\?/g;

/** A request error's message as clients may see it: in production without suggestions. */
export function requestErrorWords(message: string, production: boolean): string {
  return production ? message.replace(SUGGESTION, '') : message;
}

/**
 * The one boundary where GraphQL errors get their public shape (coded-error.ts). Errors
 * coded where they were raised pass as they are: domain errors (AppError), the limits
 * and syntax (parse-document.ts), validation (execution/document-validator.ts).
 * What is left from graphql-js is a request error (variables that do not coerce): 400.
 * Anything else is unexpected and becomes INTERNAL_ERROR, in the catalogue's words, as on REST.
 */
export function createMaskError({ production = false }: { production?: boolean } = {}): (error: unknown) => Error {
  return function maskError(error) {
    const appError = appErrorIn(error);
    if (appError && appError.code !== 'INTERNAL_ERROR') return fromAppError(appError, error instanceof GraphQLError ? error : null);
    if (!appError && isGraphQLOwn(error)) {
      if (typeof error.extensions.status === 'number') return error;
      const http = error.extensions.http as { status?: number; headers?: Record<string, string> } | undefined;
      const yogaCode = http?.status ? CODE_FOR_STATUS[http.status] : undefined;
      const [code, status] = yogaCode && http?.status ? [yogaCode, http.status] : (['VALIDATION_FAILED', 400] as const);
      return codedError(requestErrorWords(error.message, production), code, status, {
        from: error,
        requestLevel: true,
        headers: http?.headers,
      });
    }
    return new GraphQLError(errorMessage('INTERNAL_ERROR', 'default'), {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: { code: 'INTERNAL_ERROR', status: 500 },
    });
  };
}
