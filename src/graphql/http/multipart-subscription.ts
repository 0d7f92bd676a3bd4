import { isAsyncIterable } from 'graphql-yoga';
import type { Events } from './run-graphql.ts';
import { resultInit } from './result-init.ts';

/** Apollo sends an empty part this often, so proxies and clients see the stream alive. */
const HEARTBEAT_MS = 5_000;
const BOUNDARY = 'graphql';

/**
 * Apollo's multipart HTTP protocol for subscriptions: each event a part holding `{"payload": …}`,
 * `{}` as a heartbeat, the closing boundary at the end; a refusal before any event is one part
 * `{"payload": null, "errors": […]}` with the refusal's status and headers. Every part goes out with the
 * delimiter that ends it: a client knows a part is whole only when the next delimiter arrives,
 * so a part sent without it waited for the next heartbeat (5 s) before Apollo Client showed it.
 * The first heartbeat goes out at once: the client's first byte, sent once the subscription is
 * listening, from which every event committed is delivered.
 */
export function multipartSubscription(events: Events): Response {
  const encoder = new TextEncoder();
  const delimiter = `\r\n--${BOUNDARY}`;
  const part = (body: unknown) =>
    encoder.encode(`\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(body)}${delimiter}`);
  const end = encoder.encode('--\r\n');
  const headers = { 'Content-Type': `multipart/mixed; boundary="${BOUNDARY}"; subscriptionSpec="1.0"`, 'Cache-Control': 'no-cache' };
  if (!isAsyncIterable(events)) {
    const errors = events.errors ?? [];
    const body = new Uint8Array([...encoder.encode(delimiter), ...part({ payload: null, errors }), ...end]);
    const init = resultInit(events);
    return new Response(body, { status: init.status, headers: { ...init.headers, ...headers } });
  }
  const iterator = events[Symbol.asyncIterator]();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
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
      controller.enqueue(part({ payload: next.value }));
    },
    async cancel() {
      clearInterval(heartbeat);
      await iterator.return?.();
    },
  });
  return new Response(stream, { status: 200, headers });
}
