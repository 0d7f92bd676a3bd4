import type { FastifyError } from 'fastify';
import { AppError } from '../../errors/index.ts';
import { appErrorOf } from '../../services/app-error-of.ts';
import { describeIssue } from '../../services/validation/describe-issue.ts';
import { requestNaming } from './field-naming.ts';
import type { RequestPart } from './field-naming.ts';

// Fastify's own errors, as the code (and message) of ours a client should see.
const frameworkErrors: Record<string, (cause: FastifyError) => AppError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (cause) => new AppError('INVALID_CONTENT_TYPE', { cause }),
  FST_ERR_CTP_INVALID_JSON_BODY: (cause) => new AppError('INVALID_JSON', { cause }),
  FST_ERR_CTP_EMPTY_JSON_BODY: (cause) => AppError.of('INVALID_JSON', 'emptyBody', undefined, { cause }),
  FST_ERR_CTP_BODY_TOO_LARGE: (cause) => new AppError('PAYLOAD_TOO_LARGE', { cause }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: (cause) => AppError.of('BAD_REQUEST', 'contentLength', undefined, { cause }),
  FST_ERR_BAD_URL: (cause) => AppError.of('BAD_REQUEST', 'badUrl', undefined, { cause }),
  FST_ERR_MAX_PARAM_LENGTH: (cause) => AppError.of('BAD_REQUEST', 'longParameter', undefined, { cause }),
};

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && ('code' in error || 'statusCode' in error || 'validation' in error);
}

/** Turns anything thrown while serving a request into an error from the catalogue. Unknown errors become INTERNAL_ERROR. */
export function toAppError(error: unknown): AppError {
  const ours = appErrorOf(error);
  if (ours) return ours;
  if (!isFastifyError(error)) return new AppError('INTERNAL_ERROR', { cause: error });

  if (error.validation && error.validation.length > 0) {
    const naming = requestNaming((error.validationContext ?? 'body') as RequestPart);
    return AppError.worded('VALIDATION_FAILED', describeIssue(error.validation[0] as Parameters<typeof describeIssue>[0], naming), {
      cause: error,
    });
  }
  const known = frameworkErrors[error.code];
  if (known) return known(error);
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError('INVALID_JSON', { cause: error });
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('BAD_REQUEST', { cause: error });
  }
  return new AppError('INTERNAL_ERROR', { cause: error });
}
