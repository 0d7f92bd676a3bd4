import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from '../../helpers/fixtures.ts';
import { expectErrorBody } from '../../helpers/test-app.ts';
import { graphql } from '../../helpers/graphql.ts';

const PAGE = '{ pets(first: 100) { nodes { id name categoryId status } } }';

describe('compression and the cache headers of pages and assets', () => {
  it.beforeAll(async ({ t }) => {
    for (let i = 0; i < 100; i++)
      await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `Pet number ${i}`, categoryId: i + 1 } });
  });

  it('sends br or gzip as Accept-Encoding prefers, on both faces, and the same answer decoded', async ({ t }) => {
    const plain = await t.call({ url: '/v1/pets?limit=100' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await t.call({ url: '/v1/pets?limit=100', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(String(br.headers.vary)).toMatch(/Authorization/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await t.call({ url: '/v1/pets?limit=100', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);

    const viaGraphQL = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...t.auth, 'content-type': 'application/json', 'accept-encoding': 'br' },
      payload: { query: PAGE },
    });
    expect(viaGraphQL.headers['content-encoding']).toBe('br');
    const { res } = await graphql(t, PAGE);
    expect(brotliDecompressSync(viaGraphQL.rawPayload).toString()).toBe(res.body);
  });

  it('compresses an answer of up to 16 KiB in one call, whatever the host: its length known', async ({ makeApp }) => {
    const app = await makeApp();
    for (let i = 0; i < 100; i++) {
      await app.call({ method: 'POST', url: '/v1/pets', payload: { name: randomBytes(30).toString('base64url'), categoryId: i + 1 } });
    }
    const plain = await app.call({ url: '/v1/pets?limit=100' });
    // Past the plugin's own default on any host (8 KiB at most), under the server's 16 KiB.
    expect(plain.body.length).toBeGreaterThan(8192);
    expect(plain.body.length).toBeLessThan(16384);
    for (const [coding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const answer = await app.call({ url: '/v1/pets?limit=100', headers: { 'accept-encoding': coding } });
      expect(answer.headers['content-encoding']).toBe(coding);
      // The stream path would have sent it without a length.
      expect(answer.headers['content-length']).toBe(String(answer.rawPayload.length));
      expect(decode(answer.rawPayload).toString()).toBe(plain.body);
    }
  });

  it('leaves small answers and 304s uncompressed', async ({ t }) => {
    const small = await t.call({ url: '/v1/pets?limit=20', headers: { 'accept-encoding': 'br' } });
    expect(small.body.length).toBeGreaterThan(1024);
    expect(small.body.length).toBeLessThan(4096);
    expect(small.headers['content-encoding']).toBeUndefined();
    const revalidated = await t.call({
      url: '/v1/pets?limit=100',
      headers: { 'accept-encoding': 'br', 'if-none-match': String((await t.call({ url: '/v1/pets?limit=100' })).headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
  });

  it('sends GraphiQL as a small page and assets kept a year, each compressed once, with an ETag to revalidate', async ({ t }) => {
    const headers = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' };
    const page = await t.app.inject({ url: '/graphql', headers });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    const html = page.headers['content-encoding'] === 'br' ? brotliDecompressSync(page.rawPayload).toString() : page.body;
    expect(html).toMatch(/Petstore Gateway GraphiQL/);
    // The page is small: the 9 MB of editor is in its assets.
    expect(html.length).toBeLessThan(4_000);
    const again = await t.app.inject({ url: '/graphql', headers: { ...headers, 'if-none-match': String(page.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    const script = /src="([^"]+\.js)"/.exec(html)?.[1] ?? '';
    const asset = await t.app.inject({ url: script, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.rawPayload.length).toBeLessThan(3_000_000);
    const js = brotliDecompressSync(asset.rawPayload).toString();
    expect(js.length).toBeGreaterThan(7_000_000);
    // Another coding is another representation, with a tag of its own.
    const gz = await t.app.inject({ url: script, headers: { 'accept-encoding': 'gzip', 'if-none-match': String(asset.headers.etag) } });
    expect(gz.statusCode).toBe(200);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
    const identity = await t.app.inject({ url: script });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(js);
    expectErrorBody(await t.app.inject({ url: '/graphql/assets/graphiql-nope.js' }), 'NOT_FOUND');
  });

  it("lets a browser keep the docs page's scripts and styles for a day, compressed", async ({ t }) => {
    const script = await t.app.inject({ url: '/v1/docs/static/swagger-ui-bundle.js', headers: { 'accept-encoding': 'br' } });
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toBe('public, max-age=86400');
    expect(script.headers['content-encoding']).toBe('br');
    const revalidated = await t.app.inject({
      url: '/v1/docs/static/swagger-ui-bundle.js',
      headers: { 'if-none-match': String(script.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
  });
});

describe('compression off (COMPRESS_MIN_BYTES=0)', () => {
  it('sends every answer as it is', async ({ makeApp }) => {
    const t = await makeApp({ COMPRESS_MIN_BYTES: '0' });
    for (let i = 0; i < 80; i++) await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `Pet number ${i}`, categoryId: 1 } });
    const res = await t.call({ url: '/v1/pets?limit=100', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.body.length).toBeGreaterThan(4096);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
