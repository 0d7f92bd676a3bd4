import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { createClient as createWsClient } from 'graphql-ws';
import { SignJWT, decodeProtectedHeader, generateKeyPair } from 'jose';
import WebSocket from 'ws';
import { freePort } from '../../helpers/cli.ts';
import { startTcpProxy } from '../../helpers/tcp-proxy.ts';
import { describe, expect, it } from '../../helpers/fixtures.ts';
import { graphql } from '../../helpers/graphql.ts';
import { connectSdk, finishSdkAuth, SDK_CLIENTS } from '../../helpers/mcp.ts';
import { agentOAuth, loopbackRedirect, signInAt } from '../../helpers/oauth-agent.ts';
import { AUDIENCE, OTHER_AUDIENCE, signingKey, startIssuer } from '../../helpers/oidc-issuer.ts';
import type { Issuer } from '../../helpers/oidc-issuer.ts';
import { subscribe } from '../../helpers/sse-client.ts';
import type { TestApp } from '../../helpers/test-app.ts';

// Bearer access tokens from a real OpenID Connect provider (oidc-provider, as a process; openid-client
// gets its tokens), beside API keys, on every face and transport: what a front end signed in
// with an issuer sends (docs/rest-api.md, "Access tokens").

const ALL = 'petstore:read petstore:write petstore:keys';
let issuer: Issuer;

it.beforeAll(async () => {
  issuer = await startIssuer();
});
it.afterAll(async () => {
  await issuer?.stop();
});

/** The server pointed at the issuer, with accounts made for new subjects unless told otherwise. */
const tokenApp = (
  makeApp: (env: Record<string, string>, options?: object) => Promise<TestApp>,
  env: Record<string, string> = {},
  options = {},
) => makeApp({ OIDC_ISSUERS: issuer.url, OIDC_AUDIENCE: AUDIENCE, OIDC_NEW_SUBJECTS: 'create', ...env }, options);

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** What a refusal says: status, code, message and challenge. */
async function refusal(t: TestApp, token: string, url = '/v1/pets') {
  const res = await t.app.inject({ url, headers: bearer(token) });
  const body = res.json() as { code: string; message: string };
  return { status: res.statusCode, code: body.code, message: body.message, challenge: res.headers['www-authenticate'] };
}

describe('access tokens on every face and transport', () => {
  it('are accepted on REST and GraphQL over HTTP, beside API keys, for the account of their subject', async ({ makeApp }) => {
    const t = await tokenApp(makeApp);
    const token = await issuer.token(ALL);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/pets',
      headers: bearer(token),
      payload: { name: 'Signed', categoryId: 1 },
    });
    expect(created.statusCode).toBe(201);
    expect((await t.app.inject({ url: '/v1/pets', headers: bearer(token) })).json()).toEqual([expect.objectContaining({ name: 'Signed' })]);
    const { body } = await graphql(t, 'mutation { placeOrder(input: { petId: "1" }) { id status } }', undefined, bearer(token));
    expect(body.data).toEqual({ placeOrder: { id: '1', status: 'placed' } });
    // The order is the token subject's account's: the key's account (another one) has none.
    expect((await graphql(t, '{ orders { totalCount } }', undefined, bearer(token))).body.data).toEqual({ orders: { totalCount: 1 } });
    expect((await graphql(t, '{ orders { totalCount } }')).body.data).toEqual({ orders: { totalCount: 0 } });
  });

  it('open subscriptions over SSE, multipart and graphql-ws (at connection and at each subscribe)', async ({ makeApp }) => {
    const t = await tokenApp(makeApp, { SUBSCRIPTION_POLL_MS: '20' });
    const origin = await t.listen();
    const token = await issuer.token('petstore:read');
    const sse = await subscribe(origin, 'subscription { petCreated { name } }', {}, bearer(token));
    expect(sse.status).toBe(200);

    const apollo = new ApolloClient({
      link: new HttpLink({ uri: `${origin}/graphql`, headers: bearer(token) }),
      cache: new InMemoryCache(),
    });
    const multipart: unknown[] = [];
    const apolloSubscription = apollo.subscribe({ query: gql('subscription { petCreated(status: available) { name } }') }).subscribe({
      next: (value) => void multipart.push(value.data),
    });

    const ws = createWsClient({
      url: `${origin.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${token}` },
      retryAttempts: 0,
    });
    const overSocket: unknown[] = [];
    const unsubscribe = ws.subscribe(
      { query: 'subscription { petCreated { name } }' },
      { next: (value) => void overSocket.push(value.data), error: () => undefined, complete: () => undefined },
    );

    await expect
      .poll(
        async () => {
          await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Live', categoryId: 1 } });
          return [multipart.length > 0, overSocket.length > 0];
        },
        { timeout: 30_000, interval: 300 },
      )
      .toEqual([true, true]);
    expect((await sse.next()).data).toEqual({ data: { petCreated: { name: 'Live' } } });
    sse.close();
    apolloSubscription.unsubscribe();
    unsubscribe();
    await ws.dispose();
  });

  it('are refused at a socket’s connection as an invalid key is', async ({ makeApp }) => {
    const t = await tokenApp(makeApp);
    const origin = await t.listen();
    const other = await issuer.token('petstore:read', { resource: OTHER_AUDIENCE });
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      const ws = createWsClient({
        url: `${origin.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { Authorization: `Bearer ${other}` },
        retryAttempts: 0,
        on: { closed: (event) => resolve(event as { code: number; reason: string }) },
      });
      ws.subscribe(
        { query: 'subscription { petCreated { name } }' },
        { next: () => undefined, error: () => undefined, complete: () => undefined },
      );
    });
    expect(closed.code).toBe(4403);
    expect(closed.reason).toMatch(/for another API/);
  });
});

describe('a token that fails a check', () => {
  it('is 401 invalid_token, saying which check where that is safe', async ({ makeApp }) => {
    const t = await tokenApp(makeApp, { OIDC_CLOCK_SKEW_S: '0' });
    const wrongAudience = await refusal(t, await issuer.token('petstore:read', { resource: OTHER_AUDIENCE }));
    expect(wrongAudience).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      message: `The access token is for another API: its audience is not '${AUDIENCE}'.`,
      challenge: `Bearer realm="petstore", error="invalid_token", error_description="The access token is for another API: its audience is not '${AUDIENCE}'."`,
    });

    const stranger = await startIssuer();
    try {
      expect((await refusal(t, await stranger.token('petstore:read'))).message).toBe(
        "The access token's issuer is not one this server trusts.",
      );
    } finally {
      await stranger.stop();
    }

    // HMAC-signed by the issuer itself, and unsigned: both only "invalid".
    const hmac = await issuer.token('petstore:read', { resource: 'urn:petstore:hmac' });
    expect(await refusal(t, hmac)).toMatchObject({ status: 401, message: 'The access token is invalid.' });
    const claims = { iss: issuer.url, aud: AUDIENCE, sub: 'someone', scope: ALL, exp: Math.floor(Date.now() / 1000) + 600 };
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect(await refusal(t, none)).toMatchObject({ status: 401, message: 'The access token is invalid.' });
    // Signed by another key under the id of the issuer's own.
    const { privateKey } = await generateKeyPair('RS256');
    const { kid } = decodeProtectedHeader(await issuer.token('petstore:read'));
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid }).sign(privateKey);
    expect(await refusal(t, forged)).toMatchObject({ status: 401, message: 'The access token is invalid.' });

    const shortLived = await issuer.token('petstore:read', { client: 'petstore-short' });
    expect((await t.app.inject({ url: '/v1/pets', headers: bearer(shortLived) })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await refusal(t, shortLived)).message).toBe('The access token has expired; get a new one from your identity provider.');
  });

  it('of a subject without an account is refused unless accounts are made for new subjects', async ({ makeApp }) => {
    const t = await tokenApp(makeApp, { OIDC_NEW_SUBJECTS: 'refuse' });
    expect((await refusal(t, await issuer.token('petstore:read'))).message).toBe("No account is linked to this access token's subject.");
  });

  it('counts each refusal by reason, and leaves the token out of the access line, which names the subject', async ({ makeApp }) => {
    const lines: string[] = [];
    const t = await tokenApp(
      makeApp,
      { METRICS_PORT: '0', LOG_LEVEL: 'info' },
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
    const token = await issuer.token('petstore:read');
    await t.app.inject({ url: '/v1/pets', headers: bearer(token) });
    await t.app.inject({ url: '/v1/pets', headers: bearer(await issuer.token('petstore:read', { resource: OTHER_AUDIENCE })) });
    await t.app.inject({ url: '/v1/pets', headers: bearer('a.b.c') });
    const text = await t.scrape();
    expect(text).toMatch(/petstore_access_token_refusals_total\{reason="audience"\} 1/);
    expect(text).toMatch(/petstore_access_token_refusals_total\{reason="malformed"\} 1/);
    await expect.poll(() => lines.join('\n')).toContain('"subject":"petstore-tests"');
    expect(lines.join('\n')).not.toContain(token);
  });
});

describe('scopes', () => {
  it('refuse REST routes the token may not use with 403 INSUFFICIENT_SCOPE naming the scope; keys keep full access', async ({
    makeApp,
  }) => {
    const t = await tokenApp(makeApp);
    const reader = bearer(await issuer.token('petstore:read'));
    expect((await t.app.inject({ url: '/v1/pets', headers: reader })).statusCode).toBe(200);
    const write = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: reader, payload: { name: 'Nope', categoryId: 1 } });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({
      code: 'INSUFFICIENT_SCOPE',
      message: "This operation needs the scope 'petstore:write', which the credential sent does not have.",
      status: 403,
    });
    expect(write.headers['www-authenticate']).toBe('Bearer realm="petstore", error="insufficient_scope", scope="petstore:write"');
    expect((await t.app.inject({ url: '/v1/keys', headers: reader })).statusCode).toBe(403);
    expect(await t.count('pets')).toBe(0);
    expect((await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'By key', categoryId: 1 } })).statusCode).toBe(201);
  });

  it('refuse a GraphQL field the token may not use as that field’s error, not the whole request', async ({ makeApp }) => {
    const t = await tokenApp(makeApp);
    const reader = bearer(await issuer.token('petstore:read'));
    const { res, body } = await graphql(t, '{ pets { totalCount } myKeys { id } }', undefined, reader);
    // A field error (status 200), not a refusal of the request: myKeys is non-null, so GraphQL
    // nulls what holds it (here the data), as for any field error.
    expect(res.statusCode).toBe(200);
    expect(body.errors).toEqual([expect.objectContaining({ path: ['myKeys'], extensions: { code: 'INSUFFICIENT_SCOPE', status: 403 } })]);
    expect((await graphql(t, '{ pets { totalCount } }', undefined, reader)).body).toEqual({ data: { pets: { totalCount: 0 } } });
    // A mutation is refused whole before it runs (its write would happen whatever its answer shows).
    const writing = await graphql(t, 'mutation { createPet(input: { name: "X", categoryId: 1 }) { id } }', undefined, reader);
    expect(writing.res.statusCode).toBe(403);
    expect(writing.body.errors?.[0]).toMatchObject({ extensions: { code: 'INSUFFICIENT_SCOPE', status: 403 } });
    expect(await t.count('pets')).toBe(0);
  });

  it('bound the keys a token makes: no more than it may do itself', async ({ makeApp }) => {
    const t = await tokenApp(makeApp);
    const keeper = bearer(await issuer.token('petstore:read petstore:keys'));
    const made = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: keeper, payload: {} });
    expect(made.json()).toMatchObject({ scopes: ['petstore:read', 'petstore:keys'] });
    const more = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: keeper, payload: { scopes: ['petstore:write'] } });
    expect(more.statusCode).toBe(403);
    // The key it made may read and not write, as its maker.
    const key = bearer((made.json() as { key: string }).key);
    expect((await t.app.inject({ url: '/v1/pets', headers: key })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/v1/pets', headers: key, payload: { name: 'X', categoryId: 1 } })).statusCode).toBe(
      403,
    );
  });
});

describe('budgets and streams', () => {
  it('charge a token’s requests to its holder, apart from the account’s keys', async ({ makeApp }) => {
    const t = await tokenApp(makeApp, { RATE_LIMIT_PER_MINUTE: '5' });
    const token = bearer(await issuer.token('petstore:read'));
    for (let i = 0; i < 5; i++) expect((await t.app.inject({ url: '/v1/pets', headers: token })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/pets', headers: token })).statusCode).toBe(429);
    expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(200);
  });

  it('end a stream when its token expires, as a revoked key’s', async ({ makeApp }) => {
    const t = await tokenApp(makeApp, { OIDC_CLOCK_SKEW_S: '0' });
    const origin = await t.listen();
    const sse = await subscribe(
      origin,
      'subscription { petCreated { name } }',
      {},
      bearer(await issuer.token('petstore:read', { client: 'petstore-short' })),
    );
    expect(sse.status).toBe(200);
    const last = await sse.next(10_000);
    expect(last.data?.errors?.[0]).toMatchObject({
      message: 'The access token has expired; this subscription has ended. Subscribe again with a new token.',
      extensions: { code: 'UNAUTHORIZED', status: 401 },
    });
    await sse.ended;
  });
});

describe('the issuer misbehaving', () => {
  it('unreachable at start: the server starts, refuses tokens with 503 and Retry-After, serves keys; then accepts them', async ({
    makeApp,
  }) => {
    const port = await freePort();
    const t = await makeApp({ OIDC_ISSUERS: `http://127.0.0.1:${port}`, OIDC_AUDIENCE: AUDIENCE, OIDC_NEW_SUBJECTS: 'create' });
    const late = await startIssuer({ port, keys: [signingKey()] }).then(async (started) => {
      const token = await started.token('petstore:read');
      await started.stop();
      return { token, started };
    });
    const refused = await t.app.inject({ url: '/v1/pets', headers: bearer(late.token) });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.json().code).toBe('ISSUER_UNAVAILABLE');
    expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(200);
    // Reachable again (the same keys): found by the next discovery, within its backoff.
    const back = await startIssuer({ port, keys: late.started.keys });
    try {
      await expect
        .poll(async () => (await t.app.inject({ url: '/v1/pets', headers: bearer(late.token) })).statusCode, {
          timeout: 30_000,
          interval: 500,
        })
        .toBe(200);
    } finally {
      await back.stop();
    }
  });

  it('rotating its keys: a token signed by the new key is accepted after one refresh, at most one refresh a cooldown', async ({
    makeApp,
  }) => {
    // One issuer URL, a relay in front; the issuer before the rotation and the one after both
    // started ahead, so switching between them is instant. Two servers: one whose cooldown no
    // test outlasts shows what happens inside it, one with the shortest shows what happens after,
    // so nothing here depends on how fast the machine is (a restart of the issuer once took the
    // whole cooldown on a busy machine).
    const first = signingKey();
    const relay = await startTcpProxy('127.0.0.1', await freePort());
    const url = `http://127.0.0.1:${relay.port}`;
    const [before, rotated] = await Promise.all([startIssuer({ url, keys: [first] }), startIssuer({ url, keys: [signingKey(), first] })]);
    relay.retarget(before.port);
    const withCooldown = (seconds: number) =>
      makeApp({ OIDC_ISSUERS: url, OIDC_AUDIENCE: AUDIENCE, OIDC_NEW_SUBJECTS: 'create', OIDC_KEYS_REFRESH_MIN_S: String(seconds) });
    try {
      const [patient, prompt] = [await withCooldown(3_600), await withCooldown(1)];
      const old = bearer(await before.token('petstore:read'));
      for (const t of [patient, prompt]) expect((await t.app.inject({ url: '/v1/pets', headers: old })).statusCode).toBe(200);
      relay.retarget(rotated.port);
      // The relay cut its open connections: a few turns of the event loop let the clients' pools see them closed.
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
      const fresh = bearer(await rotated.token('petstore:read'));
      // Within the cooldown the key set is not fetched again: a key it lacks is invalid (401), as a made-up one is;
      // calling it an outage would let a flood of made-up ids pass for one (issue 44).
      const early = await patient.app.inject({ url: '/v1/pets', headers: fresh });
      expect([early.statusCode, early.headers['www-authenticate']]).toEqual([401, expect.stringContaining('error="invalid_token"')]);
      // A flood of key ids nobody published fetches nothing more within the cooldown.
      const { privateKey } = await generateKeyPair('RS256');
      for (let i = 0; i < 5; i++) {
        const claims = { iss: url, aud: AUDIENCE, sub: 'x', exp: Math.floor(Date.now() / 1000) + 60 };
        const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: `made-up-${i}` }).sign(privateKey);
        expect((await patient.app.inject({ url: '/v1/pets', headers: bearer(forged) })).statusCode).not.toBe(200);
      }
      expect(await rotated.jwksFetches()).toBe(0);
      // Past the cooldown, one refresh, and the new key is accepted.
      await expect
        .poll(async () => (await prompt.app.inject({ url: '/v1/pets', headers: fresh })).statusCode, { interval: 500, timeout: 30_000 })
        .toBe(200);
      expect(await rotated.jwksFetches()).toBe(1);
    } finally {
      await Promise.all([before.stop(), rotated.stop(), relay.close()]);
    }
  });

  it('stopped mid-run: tokens signed by keys already fetched still work; one needing a fetch is 503', async ({ makeApp }) => {
    const stopping = await startIssuer();
    const t = await makeApp({
      OIDC_ISSUERS: stopping.url,
      OIDC_AUDIENCE: AUDIENCE,
      OIDC_NEW_SUBJECTS: 'create',
      OIDC_KEYS_REFRESH_MIN_S: '1',
    });
    expect((await t.app.inject({ url: '/v1/pets', headers: bearer(await stopping.token('petstore:read')) })).statusCode).toBe(200);
    const kept = await stopping.token('petstore:read petstore:write');
    await stopping.stop();
    expect((await t.app.inject({ url: '/v1/pets', headers: bearer(kept) })).statusCode).toBe(200);
    const { privateKey } = await generateKeyPair('RS256');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const claims = { iss: stopping.url, aud: AUDIENCE, sub: 'x', exp: Math.floor(Date.now() / 1000) + 60 };
    const unknownKey = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'rotated-meanwhile' }).sign(privateKey);
    expect((await t.app.inject({ url: '/v1/pets', headers: bearer(unknownKey) })).statusCode).toBe(503);
  });

  it('serving garbage: tokens are 503, keys unaffected', async ({ makeApp }) => {
    const garbage = createServer((_req, res) => res.end('<html>maintenance</html>'));
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
    try {
      const t = await makeApp({ OIDC_ISSUERS: url, OIDC_AUDIENCE: AUDIENCE });
      const { privateKey } = await generateKeyPair('RS256');
      const token = await new SignJWT({ iss: url, aud: AUDIENCE, sub: 'x', exp: Math.floor(Date.now() / 1000) + 60 })
        .setProtectedHeader({ alg: 'RS256', kid: 'k' })
        .sign(privateKey);
      expect((await t.app.inject({ url: '/v1/pets', headers: bearer(token) })).statusCode).toBe(503);
      expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(200);
    } finally {
      garbage.close();
    }
  });
});

describe('docs/rest-api.md, "A local issuer to try tokens with"', () => {
  it('the issuer file and the lines after it, as written, give a token the server takes; an MCP agent signs in there with either SDK', async ({
    databaseUrl,
  }) => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const text = readFileSync(join(root, 'docs/rest-api.md'), 'utf8');
    const section = text.slice(text.indexOf('### A local issuer to try tokens with'));
    const file = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const lines = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '')[1] ?? '';
    const [issuerPort, serverPort] = [await freePort(), await freePort()];
    // Inside the checkout, so its import of oidc-provider finds this project's (the block before installs one of its own).
    const dir = join(root, 'test-artifacts', `local-issuer-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'issuer.mjs'),
      file
        .replace('http://localhost:8080', `http://localhost:${issuerPort}`)
        .replace('http://localhost:4000/', `http://localhost:${serverPort}/`),
    );
    const script = lines
      .replaceAll('~/petstore-issuer/issuer.mjs', join(dir, 'issuer.mjs'))
      .replaceAll('localhost:8080', `localhost:${issuerPort}`)
      .replaceAll('localhost:4000', `localhost:${serverPort}`)
      .replaceAll('until curl', 'timeout 60 bash -c "until curl')
      .replaceAll('; do sleep 1; done', '; do sleep 1; done"');
    const shell = spawn('bash', ['-c', script], {
      cwd: root,
      env: { ...process.env, PORT: String(serverPort), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      detached: true,
    });
    let out = '';
    shell.stdout.on('data', (d: Buffer) => (out += d.toString()));
    shell.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await expect.poll(() => out, { timeout: 120_000, interval: 200 }).toMatch(/^\[\]$/m);
      // An agent signing in there as MCP clients do (docs/mcp.md, "Signing an agent in"): the 401's
      // challenge, the resource's metadata, registering itself, a person signing in and consenting,
      // the code exchanged; then its tools, a write among them, on the token it was given.
      const mcpUrl = `http://localhost:${serverPort}/mcp`;
      for (const which of SDK_CLIENTS) {
        const redirect = await loopbackRedirect();
        try {
          const oauth = agentOAuth(redirect.url);
          await expect(connectSdk(which, mcpUrl, {}, oauth), which).rejects.toThrow(/unauthori[sz]ed/i);
          const asked = oauth.authorizationUrl;
          expect(asked?.searchParams.get('scope'), which).toBe('petstore:read petstore:write');
          expect(asked?.searchParams.get('resource'), which).toBe(`http://localhost:${serverPort}/`);
          expect(oauth.registered?.scope, which).toBe('petstore:read petstore:write');
          await finishSdkAuth(which, mcpUrl, oauth, await signInAt(asked ?? new URL('about:blank'), redirect.url));
          expect(oauth.grantedScope, which).toBe('petstore:read petstore:write');
          const client = await connectSdk(which, mcpUrl, {}, oauth);
          try {
            const added = (await client.callTool({ name: 'add_pet', arguments: { name: 'Signed in', categoryId: 1 } })) as {
              structuredContent?: unknown;
            };
            expect(added.structuredContent, which).toMatchObject({ createPet: { name: 'Signed in', status: 'available' } });
          } finally {
            await client.close();
          }
        } finally {
          await redirect.close();
        }
      }
    } finally {
      // The block leaves the issuer and the server running in the background, as a person's shell would.
      process.kill(-(shell.pid ?? 0), 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
