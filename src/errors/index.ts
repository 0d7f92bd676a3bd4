export { AppError, toErrorBody } from './app-error.ts';
export type { ErrorBody } from './app-error.ts';
export { errorCatalogue, errorMessage, retryAfterSeconds } from './catalogue.ts';
export type { ErrorCode, MessageName, Placeholder, PlainCode } from './catalogue.ts';
