import { connect } from 'node:net';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { expectErrorBody } from '../helpers/test-app.ts';

describe('request ids', () => {
  it('gives every response an X-Request-Id, keeping a plain one the caller sent', async ({ makeApp }) => {
    const t = await makeApp();
    const fresh = await t.call({ url: '/v1/pets' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.call({ url: '/v1/nope', headers: { 'x-request-id': 'trace-abc.123' } });
    expect(kept.statusCode).toBe(404);
    expect(kept.headers['x-request-id']).toBe('trace-abc.123');
    const replaced = await t.call({ url: '/v1/pets', headers: { 'x-request-id': 'bad id with spaces and <script>' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

interface AccessLine {
  msg: string;
  url: string;
  status: number;
  requestId?: string;
  accountId?: number;
  keyId?: number;
}

describe('logs', () => {
  it('never contain the Authorization header or the key, at any level', async ({ makeApp }) => {
    const lines: string[] = [];
    const dir = { LOG_LEVEL: 'trace' };
    const t = await makeApp(dir, { logStream: { write: (line) => void lines.push(line) } });
    const answers = [
      await t.call({ url: '/v1/pets' }),
      await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Logged', categoryId: 1 } }),
      await t.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${t.key.slice(0, -1)}${t.key.endsWith('X') ? 'Y' : 'X'}` } }),
      (await graphql(t, '{ pets { totalCount } }')).res,
    ];
    expect(lines.length).toBeGreaterThan(5);
    const all = lines.join('\n');
    expect(all).not.toContain(t.key);
    expect(all).not.toContain(t.key.slice(4));
    expect(all.toLowerCase()).not.toMatch(/"authorization":"bearer/);
    // Each request's access line carries the id its response sent as X-Request-Id.
    const accessLines = lines.map((l) => JSON.parse(l) as { msg: string; requestId?: string }).filter((l) => l.msg === 'request');
    expect(accessLines.map((l) => l.requestId)).toEqual(answers.map((res) => res.headers['x-request-id']));
  });

  it.for(['info', 'debug'])(
    'at LOG_LEVEL=%s, every line a request writes carries its id where pino binds it, after its base fields',
    async (level, { makeApp }) => {
      const lines: string[] = [];
      const t = await makeApp({ LOG_LEVEL: level }, { logStream: { write: (line) => void lines.push(line) } });
      const ids: string[] = [];
      for (const res of [
        await t.call({ url: '/v1/pets' }),
        (await graphql(t, '{ pets { totalCount } }')).res,
        await t.call({ url: '/v1/nope' }),
      ]) {
        ids.push(String(res.headers['x-request-id']));
      }
      for (const id of ids) {
        const written = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.requestId === id);
        // The access line last; at debug the request's own logger writes before it (the incoming
        // line, a refusal's code), and at info nothing else.
        const said = written.map((line) => line.msg);
        expect(said.at(-1)).toBe('request');
        if (level === 'debug') expect(said[0]).toBe('incoming request');
        else expect(said).toHaveLength(1);
        for (const line of written)
          expect(Object.keys(line).slice(0, 6)).toEqual(['level', 'time', 'pid', 'hostname', 'requestId', 'method']);
      }
    },
  );

  it('access lines name the account and key that called (their ids), and a bad key none', async ({ makeApp }) => {
    const lines: string[] = [];
    const t = await makeApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
    const { body } = await graphql(t, '{ myKeys { id } }');
    const keyId = Number((body.data as { myKeys: { id: string }[] }).myKeys[0]?.id);
    await t.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${t.key.slice(0, -1)}${t.key.endsWith('X') ? 'Y' : 'X'}` } });
    const access = lines.map((l) => JSON.parse(l) as AccessLine).filter((l) => l.msg === 'request');
    expect(access).toEqual([
      expect.objectContaining({ url: '/graphql', status: 200, accountId: expect.any(Number), keyId }),
      expect.objectContaining({ url: '/v1/pets', status: 401 }),
    ]);
    expect(access[1]).not.toHaveProperty('keyId');
  });

  it('probes (/healthz, /readyz, with a query string too) stay out of the info log unless LOG_PROBES=true', async ({ makeApp }) => {
    for (const [env, expected] of [
      [{ LOG_LEVEL: 'info' }, ['/v1/pets']],
      [{ LOG_LEVEL: 'info', LOG_PROBES: 'true' }, ['/healthz', '/readyz?from=balancer', '/v1/pets']],
    ] as const) {
      const lines: string[] = [];
      const t = await makeApp(env, { logStream: { write: (line) => void lines.push(line) } });
      for (const url of ['/healthz', '/readyz?from=balancer', '/v1/pets']) await t.call({ url });
      const access = lines.map((l) => JSON.parse(l) as AccessLine).filter((l) => l.msg === 'request');
      expect(access.map((l) => l.url)).toEqual(expected);
    }
  });
});

describe('security headers', () => {
  it('sends nosniff on API answers, and a CSP with no framing on the docs and GraphiQL pages', async ({ makeApp }) => {
    const t = await makeApp();
    expect((await t.call({ url: '/v1/pets' })).headers['x-content-type-options']).toBe('nosniff');
    for (const url of ['/v1/docs/', '/graphql']) {
      const page = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(page.headers['content-type'], url).toMatch(/text\/html/);
      expect(page.headers['content-security-policy'], url).toMatch(/frame-ancestors 'none'/);
      expect(page.headers['content-security-policy'], url).toMatch(/default-src 'self'/);
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});

describe('CORS', () => {
  it('is off by default: no Access-Control headers, and OPTIONS is 405', async ({ makeApp }) => {
    const t = await makeApp();
    const res = await t.call({ url: '/v1/pets', headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/pets',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(405);
  });

  it('allows exactly the configured origins', async ({ makeApp }) => {
    const t = await makeApp({ CORS_ORIGINS: 'https://app.example,https://admin.example' });
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/pets',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    // The preflight route is a catch-all; unknown paths are still 404 and wrong methods 405.
    expect((await t.call({ url: '/v1/nope' })).statusCode).toBe(404);
    expect((await t.call({ method: 'PUT', url: '/v1/pets' })).headers.allow).toBe('GET, HEAD, POST');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Authorization/);
    const allowed = await t.call({ url: '/v1/pets', headers: { origin: 'https://admin.example' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://admin.example');
    expect(String(allowed.headers['access-control-expose-headers'])).toMatch(/Link/);
    const other = await t.call({ url: '/v1/pets', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS for a browser that traces', () => {
  it('lets a front end with OpenTelemetry send traceparent and tracestate on both faces', async ({ makeApp }) => {
    const t = await makeApp({ CORS_ORIGINS: 'https://app.example' });
    for (const url of ['/v1/pets', '/graphql']) {
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,traceparent,tracestate',
        },
      });
      expect(preflight.statusCode).toBe(204);
      const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
      for (const header of ['authorization', 'content-type', 'traceparent', 'tracestate'])
        expect(allowed, `${url}: ${header}`).toContain(header);
    }
  });
});

describe('oversized headers', () => {
  it('answer 431 HEADERS_TOO_LARGE with the Error body, over a real socket', async ({ makeApp }) => {
    const t = await makeApp();
    const address = await t.listen();
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expectErrorBody({ statusCode: 431, body, headers: { 'content-type': 'application/json' } }, 'HEADERS_TOO_LARGE');
  });
});
