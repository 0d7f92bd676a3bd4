import type { FastifyError } from 'fastify';
import { AppError } from '../../errors/index.ts';
import type { ErrorCode } from '../../errors/index.ts';
import { appErrorOf } from '../../services/app-error-of.ts';
import { describeIssue } from '../../services/validation/describe-issue.ts';
import { requestNaming } from './field-naming.ts';
import type { RequestPart } from './field-naming.ts';

// Fastify's own errors, named by the code of ours a client should see.
const frameworkCodes: Record<string, [ErrorCode, string?]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['INVALID_CONTENT_TYPE'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['INVALID_JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['INVALID_JSON', 'The request body is empty; send a JSON object.'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['BAD_REQUEST', 'The Content-Length header does not match the body.'],
  FST_ERR_BAD_URL: ['BAD_REQUEST', 'The request URL is malformed.'],
  FST_ERR_MAX_PARAM_LENGTH: ['BAD_REQUEST', 'A path parameter is too long.'],
};

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && ('code' in error || 'statusCode' in error || 'validation' in error);
}

/** Turns anything thrown while serving a request into an error from the catalogue. Unknown errors become INTERNAL_ERROR. */
export function toAppError(error: unknown): AppError {
  const ours = appErrorOf(error);
  if (ours) return ours;
  if (!isFastifyError(error)) return new AppError('INTERNAL_ERROR', undefined, { cause: error });

  if (error.validation && error.validation.length > 0) {
    const naming = requestNaming((error.validationContext ?? 'body') as RequestPart);
    return new AppError('VALIDATION_FAILED', describeIssue(error.validation[0] as Parameters<typeof describeIssue>[0], naming), {
      cause: error,
    });
  }
  const known = frameworkCodes[error.code];
  if (known) return new AppError(known[0], known[1], { cause: error });
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError('INVALID_JSON', undefined, { cause: error });
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('BAD_REQUEST', undefined, { cause: error });
  }
  return new AppError('INTERNAL_ERROR', undefined, { cause: error });
}
