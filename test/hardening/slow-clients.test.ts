import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/fixtures.ts';
import type { AppEnv } from '../helpers/fixtures.ts';
import { rawSocket } from '../helpers/raw-http.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

async function listening(makeApp: (env: AppEnv) => Promise<TestApp>, env: AppEnv): Promise<{ t: TestApp; origin: string; port: number }> {
  const t = await makeApp(env);
  const origin = await t.listen();
  return { t, origin, port: Number(new URL(origin).port) };
}

/** The HTTP status line and JSON body of a raw response. */
function parse(raw: string): { statusCode: number; body: string; headers: Record<string, string> } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [status = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { statusCode: Number(status.split(' ')[1]), body, headers };
}

/** Opens a connection and keeps it, sending `bytes` and nothing more. */
function hold(port: number, bytes = ''): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      if (bytes) socket.write(bytes);
      resolve({ socket, closed });
    });
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    const closed = new Promise<string>((done) => socket.on('close', () => done(received)));
    socket.on('error', () => undefined);
    socket.once('error', reject);
    sockets.push(socket);
  });
}

describe('a request that arrives too slowly', () => {
  it('is answered 408 with the Error body when its body stalls', async ({ makeApp }) => {
    const { t, port } = await listening(makeApp, { REQUEST_TIMEOUT_MS: '500' });
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const { closed } = await hold(port, `${head}{"na`);
    // Before the fix nothing ever came back: the socket stayed open for good.
    const res = parse(await closed);
    expect(res.statusCode).toBe(408);
    expectErrorBody(res, 'REQUEST_TIMEOUT');
  });

  it('is answered 408 when its headers never end', async ({ makeApp }) => {
    const { port } = await listening(makeApp, { REQUEST_TIMEOUT_MS: '500' });
    const { closed } = await hold(port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Slow: a');
    expect(parse(await closed).statusCode).toBe(408);
  });

  it('closes a connection that never sends a request', async ({ makeApp }) => {
    const { port } = await listening(makeApp, { REQUEST_TIMEOUT_MS: '500' });
    const { closed } = await hold(port);
    expect(await closed).toMatch(/^(HTTP\/1\.1 408 |$)/);
  });
});

describe('open connections', () => {
  it('are bounded by MAX_CONNECTIONS: one more is closed at once, and a freed slot serves again', async ({ makeApp }) => {
    const { origin, port } = await listening(makeApp, { MAX_CONNECTIONS: '3' });
    const held = await Promise.all([hold(port), hold(port), hold(port)]);
    const extra = await hold(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await extra.closed).toBe('');
    held[0]?.socket.destroy();
    await held[0]?.closed;
    expect(await rawSocket(origin, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('the per-address limit', () => {
  it('counts unknown paths and 405s like every other request without a key, never health probes', async ({ makeApp }) => {
    const t = await makeApp({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '3' });
    const app = t.app;
    expect((await app.inject({ url: '/no/such/path' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'PUT', url: '/v1/pets' })).statusCode).toBe(405);
    expect((await app.inject({ url: '/also/missing' })).statusCode).toBe(404);
    for (const request of [{ url: '/no/such/path' }, { method: 'PUT' as const, url: '/v1/pets' }, { url: '/v1/pets' }]) {
      const refused = await app.inject(request);
      expect(refused.statusCode, request.url).toBe(429);
      expectErrorBody(refused, 'RATE_LIMITED');
    }
    for (let i = 0; i < 5; i++) expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/readyz' })).headers.ratelimit).toBeUndefined();
  });
});
