import { describe, expect, it } from '../helpers/fixtures.ts';
import { rawSocket } from '../helpers/raw-http.ts';
import { expectErrorBody } from '../helpers/test-app.ts';

let origin: string;
it.beforeAll(async ({ t }) => {
  origin = await t.listen();
});

/** Status, headers and body of a raw HTTP/1.1 answer. */
function parse(raw: string): { statusCode: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [status = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { statusCode: Number(status.split(' ')[1]), headers, body };
}

describe('methods nobody routes', () => {
  it.each(['TRACE', 'PROPFIND', 'SEARCH', 'PURGE', 'LOCK', 'MKCOL'])(
    '%s on a known path is 405 with Allow, on an unknown path 404',
    async (method) => {
      const known = parse(await rawSocket(origin, `${method} /v1/pets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      expect(known.statusCode).toBe(405);
      expect(known.headers.allow).toBe('GET, HEAD, POST');
      expectErrorBody(known, 'METHOD_NOT_ALLOWED');
      const withParam = parse(await rawSocket(origin, `${method} /v1/pets/7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      expect(withParam.headers.allow).toBe('GET, HEAD');
      const unknown = parse(await rawSocket(origin, `${method} /v1/nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      expect(unknown.statusCode).toBe(404);
      expectErrorBody(unknown, 'NOT_FOUND');
    },
  );

  it('CONNECT is answered 405 with the Error body, not a silently closed socket', async () => {
    const res = parse(await rawSocket(origin, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expect(res.statusCode).toBe(405);
    expect(expectErrorBody(res, 'METHOD_NOT_ALLOWED').message).toMatch(/not a proxy/);
  });
});

describe('the form of a request', () => {
  it('HTTP/1.1 without Host: 400 with the Error body', async () => {
    const res = parse(await rawSocket(origin, 'GET /v1/pets HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res, 'BAD_REQUEST').message).toBe('An HTTP/1.1 request needs a Host header.');
    // HTTP/1.0 has no Host requirement.
    expect(parse(await rawSocket(origin, 'GET /healthz HTTP/1.0\r\n\r\n')).statusCode).toBe(200);
  });

  it.for(['latin1', 'utf-16', 'ISO-8859-1', '"windows-1252"'] as const)(
    'a JSON body declared charset=%s is 400 INVALID_CONTENT_TYPE, on both faces, storing nothing',
    async (charset, { t }) => {
      for (const [url, payload] of [
        ['/v1/pets', '{"name":"Caf\xe9","categoryId":1}'],
        ['/graphql', '{"query":"mutation { createPet(input: { name: \\"x\\", categoryId: 1 }) { id } }"}'],
      ] as const) {
        const res = await t.call({ method: 'POST', url, headers: { 'content-type': `application/json; charset=${charset}` }, payload });
        expect(res.statusCode, url).toBe(400);
        const code = url === '/graphql' ? res.json().errors[0].extensions.code : expectErrorBody(res, 'INVALID_CONTENT_TYPE').code;
        expect(code).toBe('INVALID_CONTENT_TYPE');
      }
      expect(await t.db.selectFrom('pets').select('id').execute()).toEqual([]);
    },
  );

  it.for(['utf-8', 'UTF-8', '"utf-8"'] as const)('charset=%s is fine', async (charset, { t }) => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/pets',
      headers: { 'content-type': `application/json; charset=${charset}` },
      payload: '{"name":"Café","categoryId":1}',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('Café');
  });
});
