import WebSocket from 'ws';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { graphql } from '../helpers/graphql.ts';
import { expectErrorBody } from '../helpers/test-app.ts';

describe('rate limiting', () => {
  it('allows RATE_LIMIT_PER_MINUTE requests per key, then 429 with Retry-After and RateLimit headers', async ({ makeApp }) => {
    const t = await makeApp({ RATE_LIMIT_PER_MINUTE: '5' });
    for (let i = 0; i < 5; i++) {
      const ok = await t.call({ url: '/v1/pets' });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['ratelimit-policy']).toBe('"per-key";q=5;w=60');
      expect(ok.headers.ratelimit).toMatch(new RegExp(`^"per-key";r=${4 - i};t=\\d+$`));
    }
    const refused = await t.call({ url: '/v1/pets' });
    expect(refused.statusCode).toBe(429);
    expectErrorBody(refused, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // A write refused by the limit stores nothing.
    const write = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Late', categoryId: 1 } });
    expect(write.statusCode).toBe(429);
    expect(await t.db.selectFrom('pets').select('id').execute()).toEqual([]);
    // Another key has its own quota.
    const other = await createApiKey(t.db, 'other');
    expect((await t.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${other.key}` } })).statusCode).toBe(200);
  });

  it("does not count the docs page's and GraphiQL's static assets against an address's budget without a key", async ({ makeApp }) => {
    const t = await makeApp({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '3' });
    const page = await t.app.inject({ url: '/graphql', headers: { accept: 'text/html' } });
    const graphiqlAssets = [...page.body.matchAll(/(?:src|href)="(\/graphql\/assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
    const docsAssets = ['/v1/docs/static/swagger-ui-bundle.js', '/v1/docs/static/swagger-ui.css', '/v1/docs/static/swagger-initializer.js'];
    // Ten page loads' worth of assets from one address, none with a key.
    for (let load = 0; load < 10; load++) {
      for (const url of [...graphiqlAssets, ...docsAssets]) {
        const res = await t.app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers.ratelimit, url).toBeUndefined();
      }
    }
    // The page itself counted once; the address's budget is otherwise whole.
    const api = await t.app.inject({ url: '/v1/pets' });
    expect(api.statusCode).toBe(401);
    expect(api.headers.ratelimit).toMatch(/^"per-address-without-key";r=1;/);
  });

  it('counts a GraphQL operation like a REST request, against the same quota', async ({ makeApp }) => {
    const t = await makeApp({ RATE_LIMIT_PER_MINUTE: '3' });
    await t.call({ url: '/v1/pets' });
    expect((await graphql(t, '{ pets { totalCount } }')).res.statusCode).toBe(200);
    expect((await graphql(t, '{ pets { totalCount } }')).res.statusCode).toBe(200);
    const { res, body } = await graphql(t, '{ pets { totalCount } }');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMITED', status: 429 });
  });

  it('has a tighter quota for sending messages, shared by REST and GraphQL', async ({ makeApp }) => {
    const t = await makeApp({ MESSAGE_RATE_LIMIT_PER_MINUTE: '2' });
    expect((await t.call({ method: 'POST', url: '/messages', payload: { message: 'one' } })).statusCode).toBe(201);
    expect((await graphql(t, 'mutation { sendMessage(message: "two") { id } }')).body.errors).toBeUndefined();
    const rest = await t.call({ method: 'POST', url: '/messages', payload: { message: 'three' } });
    expect(rest.statusCode).toBe(429);
    expect(expectErrorBody(rest, 'RATE_LIMITED').message).toMatch(/messages-per-key/);
    const gql = await graphql(t, 'mutation { sendMessage(message: "four") { id } }');
    expect(gql.res.statusCode).toBe(429);
    expect(gql.body.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMITED', status: 429 });
    expect(await t.db.selectFrom('messages').select('id').execute()).toHaveLength(2);
    // Other requests still pass.
    expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(200);
  });

  it('charges every sendMessage an operation runs, aliases and fragments included, all or none', async ({ makeApp }) => {
    const t = await makeApp({ MESSAGE_RATE_LIMIT_PER_MINUTE: '5' });
    const db = t.db;
    const messages = async () => (await db.selectFrom('messages').select('id').execute()).length;
    const aliased = (n: number) =>
      `mutation { ${Array.from({ length: n }, (_, i) => `m${i}: sendMessage(message: "a${i}") { id }`).join(' ')} }`;
    // 15 aliases against a quota of 5: refused whole, nothing sent (before the fix: charged once, all 15 sent).
    const over = await graphql(t, aliased(15));
    expect(over.res.statusCode).toBe(429);
    expect(over.body.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMITED', status: 429 });
    expect(await messages()).toBe(0);
    // Through a fragment, with one skipped: 3 run and 3 are charged.
    const fragment =
      'mutation($no: Boolean!) { ...Send s: sendMessage(message: "s") @skip(if: $no) { id } } fragment Send on Mutation { a: sendMessage(message: "a") { id } b: sendMessage(message: "b") { id } c: sendMessage(message: "c") { id } }';
    expect((await graphql(t, fragment, { no: true })).body.errors).toBeUndefined();
    expect(await messages()).toBe(3);
    expect((await graphql(t, aliased(3))).res.statusCode).toBe(429);
    expect((await graphql(t, aliased(2))).body.errors).toBeUndefined();
    expect(await messages()).toBe(5);
    expect((await t.call({ method: 'POST', url: '/messages', payload: { message: 'one more' } })).statusCode).toBe(429);
  });

  it('throttles requests without a valid key per address, so keys cannot be guessed quickly', async ({ makeApp }) => {
    const t = await makeApp({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '3' });
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer psk_${String(i).repeat(40)}` } })).statusCode).toBe(
        401,
      );
    }
    const guess = await t.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer psk_${'9'.repeat(40)}` } });
    expect(guess.statusCode).toBe(429);
    expect(guess.headers['ratelimit-policy']).toBe('"per-address-without-key";q=3;w=60');
    // A valid key is counted on its own quota, not the address's.
    expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(200);
  });

  it('charges a WebSocket connection_init with a bad key to the address, as an HTTP request with one', async ({ makeApp }) => {
    const t = await makeApp({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '3' });
    const origin = (await t.listen()).replace('http', 'ws');
    /** Opens a graphql-ws socket with `authorization`; resolves with the close code and reason. */
    const attempt = (authorization: string) =>
      new Promise<{ code: number; reason: string }>((resolve, reject) => {
        const socket = new WebSocket(`${origin}/graphql`, 'graphql-transport-ws');
        socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: authorization } })));
        socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
        socket.on('error', reject);
      });
    const closes = [];
    for (let i = 0; i < 4; i++) closes.push(await attempt(`Bearer psk_${String(i).repeat(40)}`));
    expect(closes.slice(0, 3).map((close) => close.reason)).toEqual(Array(3).fill('The API key is invalid or has been revoked.'));
    expect(closes[3]?.code).toBe(4429);
    expect(closes[3]?.reason).toMatch(/^Rate limit of 3 per minute \(per-address-without-key\) reached/);
    // The address's budget is spent over HTTP too.
    const http = await t.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer psk_${'9'.repeat(40)}` } });
    expect(http.statusCode).toBe(429);
    // A valid key still connects: its requests are its own.
    const ok = new WebSocket(`${origin}/graphql`, 'graphql-transport-ws');
    const acked = await new Promise<string>((resolve) => {
      ok.on('open', () => ok.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: t.auth.authorization } })));
      ok.on('message', (data) => resolve((JSON.parse(data.toString()) as { type: string }).type));
    });
    expect(acked).toBe('connection_ack');
    ok.close();
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0', async ({ makeApp }) => {
    const t = await makeApp({ RATE_LIMIT_PER_MINUTE: '0', MESSAGE_RATE_LIMIT_PER_MINUTE: '1' });
    for (let i = 0; i < 10; i++) expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await t.call({ method: 'POST', url: '/messages', payload: { message: 'x' } })).statusCode).toBe(201);
    expect((await t.call({ url: '/v1/pets' })).headers.ratelimit).toBeUndefined();
  });
});
