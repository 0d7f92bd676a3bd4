import { connect } from 'node:net';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { keepAliveAgent, rawRequest } from '../helpers/raw-http.ts';

let origin: string;
it.beforeAll(async ({ t }) => {
  origin = await t.listen();
});

describe('over a real socket', () => {
  it('creates, lists and pages through pets with fetch', async ({ t }) => {
    const headers = { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' };
    for (const name of ['a', 'b', 'c']) {
      const res = await fetch(`${origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 1 }) });
      expect(res.status).toBe(201);
    }
    const first = await fetch(`${origin}/v1/pets?limit=2`, { headers });
    expect(first.status).toBe(200);
    expect(((await first.json()) as { name: string }[]).map((p) => p.name)).toEqual(['a', 'b']);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
    const second = await fetch(new URL(next ?? '', origin), { headers });
    expect(((await second.json()) as { name: string }[]).map((p) => p.name)).toEqual(['c']);
  });

  it('refuses a chunked body over 1 MiB with 413 and the Error body', async ({ t }) => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });
});

// In its own process, as a client meets it: within one process the client's writes and the
// server's close take turns on one event loop, and the broken pipe never shows.
describe('a body refused before it was read, on a server process', { timeout: 120_000 }, () => {
  it('lets a client still sending 5 MiB read its 413, every time (no broken pipe), and keeps the connection in step', async ({
    t,
    serve,
  }) => {
    const server = await serve({ DATABASE_URL: t.databaseUrl });
    const body = JSON.stringify({ name: 'x'.repeat(5 * 1024 * 1024), categoryId: 1 });
    const headers = { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' };
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${server.origin}/v1/pets`, { method: 'POST', headers, body }).catch((error: Error) => error);
      outcomes.push(
        res instanceof Error
          ? `${res.message}: ${String((res.cause as Error | undefined)?.message)}`
          : `${res.status} ${(await res.json()).code}`,
      );
    }
    expect(outcomes).toEqual(Array(12).fill('413 PAYLOAD_TOO_LARGE'));
    // The rest of each body was read and dropped, so the next request on a kept-alive connection is understood.
    const agent = keepAliveAgent();
    expect((await rawRequest(server.origin, 'POST', '/v1/pets', headers, body, agent)).status).toBe(413);
    expect((await rawRequest(server.origin, 'GET', '/v1/pets?limit=1', headers, undefined, agent)).status).toBe(200);
    agent.destroy();
  });

  it('drops a refused body for a bounded time only: a client that never finishes is disconnected after its 413', async ({ t, serve }) => {
    const server = await serve({ DATABASE_URL: t.databaseUrl });
    const { hostname, port } = new URL(server.origin);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: ${server.origin.slice(7)}\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n`,
    );
    // Keeps sending, a little at a time, as if the gigabyte were on its way.
    const trickle = setInterval(() => socket.writable && socket.write('x'.repeat(1024)), 50);
    await closed;
    clearInterval(trickle);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('"code":"PAYLOAD_TOO_LARGE"');
  });
});
