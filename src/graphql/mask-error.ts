import { GraphQLError } from 'graphql';
import { errorMessage } from '../errors/index.ts';
import type { AppError } from '../errors/index.ts';
import { appErrorOf } from '../services/app-error-of.ts';
import { codedError, fromAppError } from './coded-error.ts';

function appErrorIn(error: unknown): AppError | null {
  for (let current = error; current instanceof Error; current = current instanceof GraphQLError ? current.originalError : undefined) {
    const known = appErrorOf(current);
    if (known) return known;
  }
  return null;
}

/** A GraphQLError with no other kind of error inside: from graphql-js or graphql-jit, the scalars, or coded by our own checks. */
function isGraphQLOwn(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError);
}

/**
 * Whether the mask turns an error into INTERNAL_ERROR: the one rule for the mask and for the
 * log of unexpected errors (log-unexpected.ts).
 */
export function isUnexpected(error: unknown): boolean {
  const appError = appErrorIn(error);
  return appError ? appError.code === 'INTERNAL_ERROR' : !isGraphQLOwn(error);
}

/** graphql-js offers "Did you mean …?" for mistyped fields, enum values and input fields, which leaks the schema. */
const SUGGESTION = / ?Did you mean [^?]*\?/g;

/** A request error's message as clients may see it: in production without suggestions. */
export function requestErrorWords(message: string, production: boolean): string {
  return production ? message.replace(SUGGESTION, '') : message;
}

/**
 * The one boundary where GraphQL errors get their public shape (coded-error.ts), each built once
 * from what the executor raised (graphql-js's error, or graphql-jit's, which has locations but no
 * AST nodes), without a stack trace. Errors coded where they were raised pass as they are: domain errors (AppError), the limits
 * and syntax (parse-document.ts), validation (execution/document-validator.ts).
 * What is left from graphql-js is a request error (variables that do not coerce): 400.
 * Anything else is unexpected and becomes INTERNAL_ERROR, in the catalogue's words, as on REST.
 */
export function createMaskError({ production = false }: { production?: boolean } = {}): (error: unknown) => Error {
  return function maskError(error) {
    const appError = appErrorIn(error);
    if (appError && appError.code !== 'INTERNAL_ERROR') return fromAppError(appError, error instanceof GraphQLError ? error : null);
    if (!appError && isGraphQLOwn(error)) {
      // graphql-jit's errors have no extensions at all where graphql-js's have an empty object.
      if (typeof error.extensions?.status === 'number') return error;
      // Uncoded: graphql-js's (variables that do not coerce); the route's own refusals are coded where raised.
      return codedError(requestErrorWords(error.message, production), 'VALIDATION_FAILED', 400, { from: error, requestLevel: true });
    }
    return codedError(errorMessage('INTERNAL_ERROR', 'default'), 'INTERNAL_ERROR', 500, {
      from: error instanceof GraphQLError ? error : null,
    });
  };
}
