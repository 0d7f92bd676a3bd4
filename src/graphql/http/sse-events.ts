import type { Events } from './run-graphql.ts';
import { resultInit } from './result-init.ts';
import { resultsOf } from './results-of.ts';

/**
 * A comment every 12 s keeps proxies from closing a quiet stream; under NODE_ENV=test every
 * 300 ms, as Yoga's processor did (the suite sees heartbeats without waiting).
 */
const PING_MS = process.env.NODE_ENV === 'test' ? 300 : 12_000;

/**
 * GraphQL over SSE (distinct connections), byte for byte as Yoga's processor writes it: a comment
 * first (some browsers show nothing before a byte arrives), each result a `next` event, then
 * `complete`. Each event goes out as one chunk, so no chunk boundary falls inside an event. A
 * result that comes alone (refused before it began) carries its refusal's status and headers, a document's
 * error aside (200, as application/json answers it).
 */
export function sseEvents(events: Events): Response {
  const encoder = new TextEncoder();
  const ping = encoder.encode(':\n\n');
  const results = resultsOf(events);
  let pinging: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(ping);
      pinging = setInterval(() => {
        // null: errored; 0: the reader is behind or gone, and a ping would only queue.
        if (controller.desiredSize === null) clearInterval(pinging);
        else if (controller.desiredSize > 0) controller.enqueue(ping);
      }, PING_MS);
    },
    async pull(controller) {
      const next = await results.next();
      if (!next.done) {
        controller.enqueue(encoder.encode(`event: next\ndata: ${JSON.stringify(next.value)}\n\n`));
        return;
      }
      clearInterval(pinging);
      controller.enqueue(encoder.encode('event: complete\ndata:\n\n'));
      controller.close();
    },
    async cancel() {
      clearInterval(pinging);
      await results.stop();
    },
  });
  const init = results.alone ? resultInit(results.alone, { documentErrors: false }) : { status: 200, headers: {} };
  const headers = {
    ...init.headers,
    'Content-Type': 'text/event-stream',
    Connection: 'keep-alive',
    'Cache-Control': 'no-cache',
    'Content-Encoding': 'none',
  };
  return new Response(stream, { status: init.status, headers });
}
