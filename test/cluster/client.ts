/** One request's fate, as the client saw it; status 0 means no answer at all. */
export interface Outcome {
  at: number;
  /** When the answer (or the failure) came. */
  end: number;
  /** Why no answer came (status 0). */
  error?: string;
  /** The Error body's code (or a GraphQL answer's first error's), when the answer carried one. */
  code?: unknown;
  /** Where it was sent: a balancer or an instance. */
  origin: string;
  method: string;
  path: string;
  keyed: boolean;
  status: number;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface CallOptions {
  key: string;
  body?: unknown;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

/** A client of the cluster that logs every outcome (for the failure counts by time window). */
export class Client {
  readonly outcomes: Outcome[] = [];

  async call(origin: string, method: string, path: string, { key, body, idempotencyKey, headers: extra }: CallOptions): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...extra };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const outcome: Outcome = { at: Date.now(), end: 0, origin, method, path, keyed: idempotencyKey !== undefined, status: 0 };
    this.outcomes.push(outcome);
    try {
      const res = await fetch(`${origin}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(45_000),
      });
      const text = await res.text();
      outcome.status = res.status;
      outcome.end = Date.now();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // HAProxy's own error pages are HTML; the status says enough.
      }
      if (res.status >= 400) outcome.code = codeOf(parsed);
      return { status: res.status, headers: res.headers, body: parsed };
    } catch (error) {
      outcome.end = Date.now();
      outcome.error = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
      return { status: 0, headers: new Headers(), body: null };
    }
  }
}

/** One failed request as a line a failure message can show: when, where, what came back. */
export function describeOutcome(outcome: Outcome, since: number): string {
  const why = outcome.status === 0 ? `no answer (${outcome.error ?? ''})` : `${outcome.status} ${String(outcome.code ?? '')}`;
  return `+${outcome.at - since} ms ${outcome.method} ${outcome.origin}${outcome.path}: ${why} after ${outcome.end - outcome.at} ms`;
}

/** The path of the `rel="next"` link, or null on the last page. */
export function nextPath(headers: Headers): string | null {
  const match = /<([^>]+)>; rel="next"/.exec(headers.get('link') ?? '');
  return match?.[1] ?? null;
}

/** The Error body's code, or a GraphQL answer's first error's. */
function codeOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return null;
  if ('code' in body) return body.code;
  const errors = (body as { errors?: { extensions?: { code?: unknown } }[] }).errors;
  return errors?.[0]?.extensions?.code ?? null;
}

/** True for an answer a client should retry with the same Idempotency-Key: no answer, the balancer's, busy, or the key in use (either face). */
export function retryable({ status, body }: Answer): boolean {
  const code = codeOf(body);
  return status === 0 || status === 502 || status === 503 || status === 504 || code === 'IDEMPOTENCY_KEY_IN_USE';
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
