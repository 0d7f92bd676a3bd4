import { errorCatalogue } from './catalogue.ts';
import type { ErrorCode } from './catalogue.ts';

/** The one error type that crosses layers: a code from the catalogue, its status, a message safe to show. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message?: string, options?: ErrorOptions) {
    // A client error is an expected answer, not a fault: skip the stack trace, whose capture
    // dominated the cost of a 401. Server errors keep theirs (and their cause).
    const limit = Error.stackTraceLimit;
    if (errorCatalogue[code].status < 500) Error.stackTraceLimit = 0;
    super(message ?? errorCatalogue[code].message, options);
    Error.stackTraceLimit = limit;
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalogue[code].status;
  }
}

/** The Error body of the contract (§2.4). */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
}

export function toErrorBody(error: AppError): ErrorBody {
  return { code: error.code, message: error.message, status: error.status };
}
