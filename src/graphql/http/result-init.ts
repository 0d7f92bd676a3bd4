import type { ExecutionResult } from 'graphql';
import { httpOf } from '../coded-error.ts';

/**
 * The status and headers of a result with errors, by GraphQL over HTTP's rules as Yoga applies
 * them: the highest status of its request-level errors (coded-error.ts), else 200, and their
 * headers (Retry-After, WWW-Authenticate, Allow). Without `documentErrors` (an answer of
 * `application/json`, and SSE, which follows its rules), a document's errors (its syntax, a limit,
 * validation) leave the status at 200. Field errors never move it: the data came with them.
 */
export function resultInit(result: ExecutionResult, { documentErrors = true } = {}): { status: number; headers: Record<string, string> } {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const error of result.errors ?? []) {
    const http = httpOf(error);
    if (!http) continue;
    Object.assign(headers, http.headers);
    if (http.spec && !documentErrors) continue;
    status = Math.max(status, http.status);
  }
  return { status, headers };
}
