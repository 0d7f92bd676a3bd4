import { errorCatalogue, errorMessage } from './catalogue.ts';
import type { ErrorCode, MessageName, MessageParams, PlainCode } from './catalogue.ts';

/** The one error type that crosses layers: a code from the catalogue, its status, and words from the catalogue. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** The catalogue message it was said with, and what filled it (AppError.of): what a header may repeat. */
  readonly said?: { name: string; params?: Readonly<Record<string, string | number>> };

  /** A code said in its default words. */
  constructor(code: PlainCode, options?: ErrorOptions);
  /** For AppError.of and AppError.worded only (eslint refuses a third argument anywhere else). */
  constructor(code: ErrorCode, options: ErrorOptions | undefined, message: string, said?: AppError['said']);
  constructor(code: ErrorCode, options?: ErrorOptions, message = errorMessage(code, 'default'), said?: AppError['said']) {
    // A client error is an expected answer, not a fault: skip the stack trace, whose capture
    // dominated the cost of a 401. Server errors keep theirs (and their cause).
    const limit = Error.stackTraceLimit;
    const expected = errorCatalogue[code].status < 500;
    if (expected) Error.stackTraceLimit = 0;
    super(message, options);
    Error.stackTraceLimit = limit;
    // Its `stack` as plain text: libraries that wrap it (graphql-js, graphql-jit) copy their
    // original's stack, and V8 would format an empty trace through the source maps for each.
    if (expected) Object.defineProperty(this, 'stack', { value: `AppError: ${message}`, writable: true, configurable: true });
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalogue[code].status;
    if (said) this.said = said;
  }

  /** `code` said with its message `name`, its placeholders filled from `params`. */
  static of<C extends ErrorCode, N extends MessageName<C>>(
    code: C,
    name: N,
    ...[params, options]: [...MessageParams<C, N>, options?: ErrorOptions]
  ): AppError {
    const filled = params as Record<string, string | number> | undefined;
    return new AppError(code, options, errorMessage(code, name, filled), { name, params: filled });
  }

  /**
   * `code` in words composed elsewhere: a schema issue described for the field the client named
   * (services/validation), or graphql-js's own. Never words written at the call (eslint).
   */
  static worded(code: ErrorCode, words: string, options?: ErrorOptions): AppError {
    return new AppError(code, options, words);
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
