import type { Events } from './run-graphql.ts';
import { resultInit } from './result-init.ts';
import { resultsOf } from './results-of.ts';

/**
 * A query's increments (@defer, @stream) as multipart/mixed, byte for byte as Yoga's processor
 * writes them (and as frame-answer.ts frames a single result): each result a part with its
 * length, `-----` after the last.
 */
export function multipartIncrements(events: Events): Response {
  const encoder = new TextEncoder();
  const results = resultsOf(events);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('\r\n---'));
    },
    async pull(controller) {
      const { done, value } = await results.next();
      // One chunk a part (and the end with the last): no chunk boundary falls inside a part.
      let chunk = '';
      if (value) {
        const json = JSON.stringify(value);
        chunk = `\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}\r\n---`;
      }
      if (done) chunk += '--\r\n';
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (done) controller.close();
    },
    async cancel() {
      await results.stop();
    },
  });
  // A result that comes alone (refused before it began) carries its refusal's status and headers; a stream began with 200.
  const init = results.alone ? resultInit(results.alone) : { status: 200, headers: {} };
  const headers = { ...init.headers, Connection: 'keep-alive', 'Content-Type': 'multipart/mixed; boundary="-"' };
  return new Response(stream, { status: init.status, headers });
}
