export { AppError, toErrorBody } from './app-error.ts';
export type { ErrorBody } from './app-error.ts';
export { errorCatalogue, retryAfterSeconds } from './catalogue.ts';
export type { ErrorCode } from './catalogue.ts';
