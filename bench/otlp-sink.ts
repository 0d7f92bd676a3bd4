// A loopback OTLP/HTTP endpoint that accepts every export and keeps nothing: so the bench can
// measure tracing with every request sampled, its spans really exported, without a collector.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  url: string;
  /** Exports received so far. */
  exports(): number;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
