import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** 200, 500, no answer ever, or the connection closed without an answer. */
export type Reply = 'ok' | 'fail' | 'hang' | 'drop';

export interface ReceivedRequest {
  body: Record<string, unknown>;
  idempotencyKey: string | undefined;
  /** The W3C trace context the sender passed on, if any. */
  traceparent: string | undefined;
}

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  /** Closes the receiver; a second call does nothing. */
  close(): Promise<void>;
}

/** A real webhook endpoint on loopback; `decide` picks each answer. */
export async function startReceiver(decide: (request: ReceivedRequest, index: number) => Reply | Promise<Reply>): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const request = {
        body: JSON.parse(text) as Record<string, unknown>,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        traceparent: req.headers.traceparent as string | undefined,
      };
      received.push(request);
      void Promise.resolve(decide(request, received.length - 1)).then((reply) => {
        if (reply === 'ok') res.writeHead(200).end('ok');
        else if (reply === 'fail') res.writeHead(500).end('boom');
        else if (reply === 'drop') req.socket.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 60_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
