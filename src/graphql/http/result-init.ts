import type { ExecutionResult } from 'graphql';

interface HttpExtension {
  status?: number;
  headers?: Record<string, string>;
  spec?: boolean;
}

/**
 * The status and headers a result that comes alone in a stream asks for (a refusal before it
 * began): the highest of its errors' statuses (coded-error.ts), else 200, and their headers
 * (Retry-After, WWW-Authenticate). Without `documentErrors`, a document's errors (its syntax,
 * validation) leave the status at 200, as application/json answers them.
 */
export function resultInit(result: ExecutionResult, { documentErrors = true } = {}): { status: number; headers: Record<string, string> } {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const error of result.errors ?? []) {
    const http = error.extensions.http as HttpExtension | undefined;
    Object.assign(headers, http?.headers);
    if (!http?.status || (http.spec && !documentErrors)) continue;
    status = Math.max(status, http.status);
  }
  return { status, headers };
}
