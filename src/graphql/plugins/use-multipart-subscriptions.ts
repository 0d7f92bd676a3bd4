import type { ExecutionResult, GraphQLError } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';
import type { FetchAPI, Plugin } from 'graphql-yoga';

/** Yoga's result processor type, which it does not export by name. */
type ResultProcessor = Parameters<Parameters<NonNullable<Plugin['onResultProcess']>>[0]['setResultProcessor']>[0];

/** Apollo sends an empty part this often, so proxies and clients see the stream alive. */
const HEARTBEAT_MS = 5_000;
const BOUNDARY = 'graphql';

/** Whether the Accept header names multipart/mixed (Apollo Client: `multipart/mixed;boundary="graphql";subscriptionSpec=1.0, application/json`). */
function acceptsMultipart(accept: string | null): boolean {
  return (accept ?? '').split(',').some((type) => type.split(';')[0]?.trim().toLowerCase() === 'multipart/mixed');
}

/** A result as a client sees it: no `extensions.http`, which only says how to answer the request. */
function shown(result: ExecutionResult): Record<string, unknown> {
  const errors = result.errors?.map((error: GraphQLError) => {
    const { http: _http, ...extensions } = error.extensions as Record<string, unknown>;
    return { ...error.toJSON(), extensions };
  });
  return { ...result, ...(errors ? { errors } : {}) };
}

/** The status a refusal before the stream asks for: the highest of its errors' (coded-error.ts), else 200. */
function statusOf(result: ExecutionResult): number {
  const statuses = (result.errors ?? []).map((error) => (error.extensions.http as { status?: number } | undefined)?.status ?? 0);
  return Math.max(200, ...statuses);
}

/**
 * Apollo's multipart HTTP protocol for subscriptions: each event a part holding `{"payload": …}`,
 * `{}` as a heartbeat, the closing boundary at the end; a refusal before any event is one part
 * `{"payload": null, "errors": […]}` with the refusal's status. Every part goes out with the
 * delimiter that ends it: a client knows a part is whole only when the next delimiter arrives,
 * so a part sent without it waited for the next heartbeat (5 s) before Apollo Client showed it.
 * The first heartbeat goes out at once: the client's first byte, sent once the subscription is
 * listening, from which every event committed is delivered.
 */
const processMultipart: ResultProcessor = (result, fetchAPI: FetchAPI) => {
  const encoder = new fetchAPI.TextEncoder();
  const delimiter = `\r\n--${BOUNDARY}`;
  const part = (body: unknown) =>
    encoder.encode(`\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(body)}${delimiter}`);
  const end = encoder.encode('--\r\n');
  const headers = { 'Content-Type': `multipart/mixed; boundary="${BOUNDARY}"; subscriptionSpec="1.0"`, 'Cache-Control': 'no-cache' };
  if (!isAsyncIterable(result)) {
    const single = result as ExecutionResult;
    const body = new Uint8Array([...encoder.encode(delimiter), ...part({ payload: null, errors: shown(single).errors ?? [] }), ...end]);
    return new fetchAPI.Response(body, { status: statusOf(single), headers });
  }
  const iterator = result[Symbol.asyncIterator]();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const stream = new fetchAPI.ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([...encoder.encode(delimiter), ...part({})]));
      heartbeat = setInterval(() => controller.enqueue(part({})), HEARTBEAT_MS);
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        clearInterval(heartbeat);
        controller.enqueue(end);
        controller.close();
        return;
      }
      controller.enqueue(part({ payload: shown(next.value as ExecutionResult) }));
    },
    async cancel() {
      clearInterval(heartbeat);
      await iterator.return?.();
    },
  });
  return new fetchAPI.Response(stream, { status: 200, headers });
};

/**
 * Subscriptions for clients that ask for multipart/mixed (Apollo Client's default for
 * subscriptions over HTTP), beside Yoga's own SSE: chosen only where no other processor was.
 * Register before useSubscriptionRefusals, which returns a stream nobody chose to send.
 */
export function useMultipartSubscriptions<Context extends object>(): Plugin<Context> {
  const subscriptions = new WeakSet<Request>();
  return {
    onSubscribe({ args }) {
      const { request } = args.contextValue as { request?: Request };
      if (request) subscriptions.add(request);
    },
    onResultProcess({ request, resultProcessor, setResultProcessor }) {
      if (resultProcessor || !subscriptions.has(request) || !acceptsMultipart(request.headers.get('accept'))) return;
      setResultProcessor(processMultipart, 'multipart/mixed');
    },
  };
}
