import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import type { ClientOptions, Client as WsClient } from 'graphql-ws';
import type { KyselyPlugin } from 'kysely';
import WebSocket from 'ws';
import { describe, expect, it } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';

// Each transport with the client library front ends use for it, as their docs set it up
// (docs/graphql.md shows the same set-ups).
const PET_CREATED = 'subscription { petCreated { id name } }';

const createPet = (t: TestApp, name: string) => t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1 } });

/** What a client's callbacks saw: results, the error it ended with, whether it completed. */
function observer() {
  const seen: { data?: unknown; errors?: readonly { message: string; extensions?: unknown }[] }[] = [];
  const state = { error: undefined as unknown, completed: false };
  return {
    seen,
    state,
    sink: {
      next: (value: { data?: unknown; errors?: readonly { message: string; extensions?: unknown }[] }) => void seen.push(value),
      error: (error: unknown) => void (state.error = error),
      complete: () => void (state.completed = true),
    },
  };
}

/** Pets are created until the subscriber has seen `name` (it may subscribe a moment after the first). */
async function seeCreated(t: TestApp, seen: { data?: unknown }[], name: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await createPet(t, name);
        return JSON.stringify(seen);
      },
      { timeout: 30_000, interval: 200 },
    )
    .toContain(`"name":"${name}"`);
}

/** A graphql-ws client as front ends set one up: the key in connectionParams; `on` for its events. */
const wsClient = (origin: string, key: string | null, on: ClientOptions['on'] = {}): WsClient =>
  createWsClient({
    url: `${origin.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: key === null ? {} : { Authorization: `Bearer ${key}` },
    retryAttempts: 0,
    on,
  });
const ignore = { next: () => undefined, error: () => undefined, complete: () => undefined };

describe('Apollo Client: subscriptions over multipart HTTP (its default)', () => {
  it('receives each new pet, and a refusal comes with its own status', async ({ makeApp }) => {
    const t = await makeApp({ SUBSCRIPTION_POLL_MS: '20', SUBSCRIPTIONS_PER_KEY: '1' });
    const origin = await t.listen();
    const client = new ApolloClient({ link: new HttpLink({ uri: `${origin}/graphql`, headers: t.auth }), cache: new InMemoryCache() });
    const first = observer();
    const subscription = client.subscribe({ query: gql(PET_CREATED) }).subscribe(first.sink);
    await seeCreated(t, first.seen, 'via-multipart');
    // The cap is 1: a second is refused before any event, as a 429 the client reports. (Another
    // document: Apollo Client would share one subscription between two identical ones.)
    const second = observer();
    client.subscribe({ query: gql('subscription { petCreated(status: available) { id } }') }).subscribe(second.sink);
    // Apollo Client 4 hands an error to `next`, as the result's `error` (the answer was a 429 with the errors in JSON).
    await expect.poll(() => second.seen.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const refusal = (second.seen[0] as { error?: { errors?: { message: string; extensions?: unknown }[] } }).error;
    expect(refusal?.errors?.[0]).toMatchObject({
      message: 'At most 1 subscriptions may be open per key; close one first.',
      extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', status: 429 },
    });
    subscription.unsubscribe();
    // Unsubscribing gives the slot back once the server has seen the connection close: until then a
    // new subscription is refused, so a refused one is opened again; pets are created until one is seen
    // (a pet created before the subscription reached the server is not an event for it).
    const subscribeThird = () => {
      const seen = observer();
      return { seen, handle: client.subscribe({ query: gql(PET_CREATED) }).subscribe(seen.sink) };
    };
    let third = subscribeThird();
    await expect
      .poll(
        async () => {
          const { seen, state } = third.seen;
          if (state.completed || state.error !== undefined || seen.some((result) => (result as { error?: unknown }).error !== undefined)) {
            third.handle.unsubscribe();
            third = subscribeThird();
          }
          await createPet(t, 'after-unsubscribe');
          return JSON.stringify(third.seen.seen);
        },
        { timeout: 60_000, interval: 200 },
      )
      .toContain('"name":"after-unsubscribe"');
    third.handle.unsubscribe();
  });
});

describe('graphql-sse: GraphQL over SSE, distinct connections', () => {
  it('receives each new pet, and reads a refusal with its status', async ({ makeApp }) => {
    const t = await makeApp({ SUBSCRIPTION_POLL_MS: '20' });
    const origin = await t.listen();
    const client = createSseClient({ url: `${origin}/graphql`, headers: t.auth, retryAttempts: 0 });
    const events = observer();
    const dispose = client.subscribe({ query: PET_CREATED }, events.sink);
    await seeCreated(t, events.seen, 'via-sse');
    dispose();
    const unknown = observer();
    client.subscribe({ query: 'subscription { messageUpdated(id: "msg_1") { id } }' }, unknown.sink);
    await expect.poll(() => unknown.state.error, { timeout: 30_000 }).toBeTruthy();
    expect((unknown.state.error as { response?: Response }).response?.status).toBe(404);
    client.dispose();
  });
});

describe('graphql-ws: subscriptions over WebSocket', () => {
  it('receives each new pet with the key in connectionParams', async ({ makeApp }) => {
    const t = await makeApp({ SUBSCRIPTION_POLL_MS: '20' });
    const origin = await t.listen();
    const client = wsClient(origin, t.key);
    const events = observer();
    const dispose = client.subscribe({ query: PET_CREATED }, events.sink);
    await seeCreated(t, events.seen, 'via-ws');
    dispose();
    await client.dispose();
  });

  it('closes a connection without a valid key (4403, saying why), and refuses queries and mutations', async ({ makeApp }) => {
    const t = await makeApp();
    const origin = await t.listen();
    for (const [key, reason] of [
      [null, /Missing API key/],
      [`psk_${'x'.repeat(40)}`, /invalid or has been revoked/],
    ] as const) {
      const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
        const client = wsClient(origin, key, { closed: (event) => resolve(event as { code: number; reason: string }) });
        client.subscribe({ query: PET_CREATED }, ignore);
      });
      expect(closed.code).toBe(4403);
      expect(closed.reason).toMatch(reason);
    }
    const client = wsClient(origin, t.key);
    const query = observer();
    client.subscribe({ query: '{ pets { totalCount } }' }, query.sink);
    await expect.poll(() => query.state.error, { timeout: 30_000 }).toBeTruthy();
    expect(JSON.stringify(query.state.error)).toMatch(/only subscriptions run/);
    await client.dispose();
  });

  it('ends the streams of a key revoked meanwhile with a last error, then closes the socket saying why; it cannot connect again', async ({
    makeApp,
  }) => {
    const t = await makeApp({ SUBSCRIPTION_POLL_MS: '20' });
    const origin = await t.listen();
    const made = (await t.call({ method: 'POST', url: '/v1/keys', payload: {} })).json() as { id: number; key: string };
    let closed: { code: number; reason: string } | undefined;
    const client = wsClient(origin, made.key, { closed: (event) => void (closed = event as { code: number; reason: string }) });
    const events = observer();
    client.subscribe({ query: PET_CREATED }, events.sink);
    await seeCreated(t, events.seen, 'before-revoking');
    expect((await t.call({ method: 'DELETE', url: `/v1/keys/${made.id}` })).statusCode).toBe(200);
    await expect.poll(() => events.state.completed || events.state.error !== undefined, { timeout: 30_000 }).toBe(true);
    expect(JSON.stringify(events.seen.at(-1)?.errors ?? events.state.error)).toMatch(/API key was revoked/);
    // Its last event sent, the socket closes saying why; connecting again is refused.
    await expect
      .poll(() => closed, { timeout: 30_000 })
      .toMatchObject({ code: 4403, reason: 'The API key was revoked; this subscription has ended.' });
    await client.dispose();
    const again = await new Promise<{ code: number; reason: string }>((resolve) => {
      wsClient(origin, made.key, { closed: (event) => resolve(event as { code: number; reason: string }) }).subscribe(
        { query: PET_CREATED },
        ignore,
      );
    });
    expect(again).toMatchObject({ code: 4403, reason: expect.stringMatching(/invalid or has been revoked/) });
  });

  it('in production with a manifest runs trusted documents only, as over HTTP', async ({ makeApp, tmp }) => {
    const path = join(tmp, 'persisted-documents.json');
    const sha256 = createHash('sha256').update(PET_CREATED).digest('hex');
    writeFileSync(path, JSON.stringify({ [`sha256:${sha256}`]: PET_CREATED }));
    const t = await makeApp({ NODE_ENV: 'production', GRAPHQL_TRUSTED_DOCUMENTS: path, SUBSCRIPTION_POLL_MS: '20' });
    const client = wsClient(await t.listen(), t.key);
    const byId = observer();
    // graphql-ws's own client requires a query string: an empty one, and the document's id in Apollo's extension.
    client.subscribe({ query: '', extensions: { persistedQuery: { version: 1, sha256Hash: sha256 } } }, byId.sink);
    await seeCreated(t, byId.seen, 'via-trusted-ws');
    for (const [payload, code] of [
      [{ query: PET_CREATED }, 'TRUSTED_DOCUMENTS_ONLY'],
      [{ query: '', extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } }, 'UNKNOWN_DOCUMENT'],
    ] as const) {
      const refused = observer();
      client.subscribe(payload, refused.sink);
      await expect.poll(() => refused.state.error, { timeout: 30_000 }).toBeTruthy();
      expect(JSON.stringify(refused.state.error)).toContain(code);
    }
    await client.dispose();
  });

  it('answers a subscription refused once it began (a scope, its field, its variables) with one result and complete, as a socket shows errors', async ({
    makeApp,
  }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    const writer = (await createApiKey(t.db, 'ws-writer', { scopes: ['petstore:write'] })).key;
    const refusedAs = async (key: string, payload: Record<string, unknown>) => {
      const socket = await rawGraphQLWs(await t.listen(), key);
      try {
        socket.send({ id: '1', type: 'subscribe', payload });
        await expect.poll(() => socket.received.some((m) => m.type === 'complete'), { timeout: 30_000 }).toBe(true);
        return socket.received.filter((m) => m.id === '1');
      } finally {
        socket.close();
      }
    };
    const refusal = (code: string, status: number) => [
      {
        id: '1',
        type: 'next',
        payload: { errors: [{ message: expect.any(String), locations: expect.any(Array), extensions: { code, status } }] },
      },
      { id: '1', type: 'complete' },
    ];
    expect(await refusedAs(writer, { query: PET_CREATED })).toEqual(refusal('INSUFFICIENT_SCOPE', 403));
    expect(await refusedAs(t.key, { query: 'subscription { messageUpdated(id: "msg_1") { id } }' })).toEqual(
      refusal('MESSAGE_NOT_FOUND', 404),
    );
    expect(
      await refusedAs(t.key, { query: 'subscription($s: PetStatus) { petCreated(status: $s) { id } }', variables: { s: 'bogus' } }),
    ).toEqual(refusal('VALIDATION_FAILED', 400));
    // Each counted as any GraphQL error is, by its code.
    const scrape = await t.scrape();
    for (const code of ['INSUFFICIENT_SCOPE', 'MESSAGE_NOT_FOUND', 'VALIDATION_FAILED'])
      expect(scrape).toMatch(
        new RegExp(
          `^petstore_errors_total\\{[^}]*face="graphql"[^}]*code="${code}"[^}]*\\} 1$|^petstore_errors_total\\{[^}]*code="${code}"[^}]*face="graphql"[^}]*\\} 1$`,
          'm',
        ),
      );
  });

  it('runs a trusted document sent by its id alone (documentId, or Apollo’s extension without a query), as over HTTP', async ({
    makeApp,
    tmp,
  }) => {
    const path = join(tmp, 'persisted-documents.json');
    const sha256 = createHash('sha256').update(PET_CREATED).digest('hex');
    writeFileSync(path, JSON.stringify({ [`sha256:${sha256}`]: PET_CREATED }));
    const t = await makeApp({ NODE_ENV: 'production', GRAPHQL_TRUSTED_DOCUMENTS: path, SUBSCRIPTION_POLL_MS: '20' });
    // graphql-ws's own client insists on a query, so these are sent as a front end's own socket code would.
    const socket = await rawGraphQLWs(await t.listen(), t.key);
    try {
      socket.send({ id: 'by-document-id', type: 'subscribe', payload: { documentId: `sha256:${sha256}` } });
      socket.send({
        id: 'by-apollo-hash',
        type: 'subscribe',
        payload: { extensions: { persistedQuery: { version: 1, sha256Hash: sha256 } } },
      });
      socket.send({ id: 'unknown', type: 'subscribe', payload: { documentId: `sha256:${'0'.repeat(64)}` } });
      await expect
        .poll(
          async () => {
            await createPet(t, 'by-id');
            return ['by-document-id', 'by-apollo-hash'].every((id) => socket.received.some((m) => m.id === id && m.type === 'next'));
          },
          { timeout: 30_000, interval: 200 },
        )
        .toBe(true);
      expect(socket.received.find((m) => m.id === 'unknown')).toEqual({
        id: 'unknown',
        type: 'error',
        payload: [
          { message: expect.stringMatching(/No trusted document has this id/), extensions: { code: 'UNKNOWN_DOCUMENT', status: 400 } },
        ],
      });
      expect(socket.closed).toBeNull();
    } finally {
      socket.close();
    }
  });

  it("charges each subscribe to its key's request budget, as HTTP requests are charged (the socket's own charge covers its first)", async ({
    makeApp,
  }) => {
    const t = await makeApp({ RATE_LIMIT_PER_MINUTE: '2' });
    // One socket for all three subscribes: not lazy, so it stays open between them.
    const client = createWsClient({
      url: `${(await t.listen()).replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${t.key}` },
      retryAttempts: 0,
      lazy: false,
    });
    // A subscribe refused at once (no such message) still ran, and counts.
    const MISSING = 'subscription { messageUpdated(id: "msg_1") { id } }';
    const seenError = async () => {
      const refused = observer();
      client.subscribe({ query: MISSING }, refused.sink);
      await expect.poll(() => refused.state.error !== undefined || refused.state.completed, { timeout: 30_000 }).toBe(true);
      return JSON.stringify([refused.seen, refused.state.error]);
    };
    expect(await seenError()).toContain('MESSAGE_NOT_FOUND');
    expect(await seenError()).toContain('MESSAGE_NOT_FOUND');
    // Refused as over HTTP, with the code and status alone (no HTTP internals on a socket).
    expect(await seenError()).toContain('"extensions":{"code":"RATE_LIMITED","status":429}');
    // The same budget as HTTP's: spent.
    expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(429);
    await client.dispose();
  });

  it('closes sockets with 1001 when the server drains, so clients reconnect elsewhere', async ({ makeApp }) => {
    const t = await makeApp();
    const origin = await t.listen();
    let connected: () => void = () => undefined;
    const up = new Promise<void>((resolve) => (connected = resolve));
    const closed = new Promise<number>((resolve) => {
      const client = wsClient(origin, t.key, {
        connected: () => connected(),
        closed: (event) => resolve((event as { code: number }).code),
      });
      client.subscribe({ query: PET_CREATED }, ignore);
    });
    await up;
    await t.app.drainAndClose();
    expect(await closed).toBe(1001);
  });
});

describe('graphql-ws: what a socket costs its key', () => {
  /** Opens `count` sockets with `key`, each sending connection_init and nothing more: how each came out once settled. */
  const openMany = async (origin: string, key: string, count: number) =>
    Promise.all(Array.from({ length: count }, () => settledSocket(origin, key)));

  it('caps the sockets one key holds open, so it never takes another key’s connections', async ({ makeApp }) => {
    const t = await makeApp({ MAX_CONNECTIONS: '40', SUBSCRIPTIONS_PER_KEY: '5', RATE_LIMIT_PER_MINUTE: '1000' });
    const origin = await t.listen();
    const greedy = (await createApiKey(t.db, 'greedy')).key;
    const sockets = await openMany(origin, greedy, 30);
    expect(sockets.filter((socket) => socket.acked)).toHaveLength(5);
    const refused = sockets.filter((socket) => !socket.acked).map((socket) => socket.closed);
    expect(refused).toHaveLength(25);
    for (const closed of refused) {
      expect(closed).toEqual({
        code: 4429,
        reason: 'At most 5 WebSockets may be open per key on one instance; close one first (one socket carries many subscriptions).',
      });
    }
    // Another key is served on every transport, its sockets included.
    expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(200);
    const mine = await openMany(origin, t.key, 5);
    expect(mine.every((socket) => socket.acked)).toBe(true);
    // A socket closed gives its place back.
    sockets.find((socket) => socket.acked)?.close();
    const later: Awaited<ReturnType<typeof settledSocket>>[] = [];
    await expect
      .poll(
        async () => {
          later.push(await settledSocket(origin, greedy));
          return later.at(-1)?.acked;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    for (const socket of [...sockets, ...mine, ...later]) socket.close();
  });

  it('gives a socket’s place back however it closes, also while its connection_init is still being checked', async ({ makeApp }) => {
    // Every statement made slow while `slow` is set: a key's check outlasts its socket.
    let slow = false;
    const delay: KyselyPlugin = {
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        if (slow) await new Promise((resolve) => setTimeout(resolve, 300));
        return result;
      },
    };
    const t = await makeApp({ SUBSCRIPTIONS_PER_KEY: '2', RATE_LIMIT_PER_MINUTE: '1000' }, { wrapDb: (db) => db.withPlugin(delay) });
    const origin = await t.listen();
    for (let round = 0; round < 3; round++) {
      // A new key each round, so its check reads the database, slowly, while the client leaves.
      const { key } = await createApiKey(t.db, `leaving-${round}`);
      const socket = new WebSocket(`${origin.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('open', resolve));
      slow = true;
      const gone = new Promise((resolve) => socket.once('close', resolve));
      socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${key}` } }));
      socket.close();
      await gone;
      // The server's side of it closes too, before the check ends.
      await new Promise((resolve) => setTimeout(resolve, 400));
      slow = false;
      // Both of the key's places are free: two more sockets are taken.
      const again = [await settledSocket(origin, key), await settledSocket(origin, key)];
      expect(
        again.map((one) => one.acked),
        `round ${round}`,
      ).toEqual([true, true]);
      for (const one of again) one.close();
    }
  });

  it('charges each socket to its key’s request budget, as an HTTP request is, whether or not it ever subscribes', async ({ makeApp }) => {
    const t = await makeApp({ RATE_LIMIT_PER_MINUTE: '3' });
    const origin = await t.listen();
    const sockets = await openMany(origin, t.key, 4);
    expect(sockets.filter((socket) => socket.acked)).toHaveLength(3);
    expect(sockets.find((socket) => !socket.acked)?.closed).toEqual({
      code: 4429,
      reason: expect.stringMatching(/^Rate limit of 3 per minute \(per-key\) reached; retry in \d+ s\.$/),
    });
    // The same budget as HTTP's: spent.
    expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(429);
    for (const socket of sockets) socket.close();
  });

  it('closes a socket that carries no subscription for SUBSCRIPTION_SOCKET_IDLE_MS; one that does stays open', async ({ makeApp }) => {
    const t = await makeApp({ SUBSCRIPTION_SOCKET_IDLE_MS: '1000' });
    const origin = await t.listen();
    const idle = await rawGraphQLWs(origin, t.key);
    const busy = await rawGraphQLWs(origin, t.key);
    busy.send({ id: '1', type: 'subscribe', payload: { query: PET_CREATED } });
    await expect
      .poll(() => idle.closed, { timeout: 30_000 })
      .toEqual({ code: 1000, reason: 'No subscription for 1 s; connect again to subscribe.' });
    // Three idle periods later the subscribed one is open still, ping or no ping.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(busy.closed).toBeNull();
    // Its subscription completed, it is idle from then on.
    busy.send({ id: '1', type: 'complete' });
    await expect.poll(() => busy.closed, { timeout: 30_000 }).toMatchObject({ code: 1000 });
  });

  it('closes an idle socket whose key is revoked meanwhile, saying why', async ({ makeApp }) => {
    const t = await makeApp();
    const origin = await t.listen();
    const made = (await t.call({ method: 'POST', url: '/v1/keys', payload: {} })).json() as { id: number; key: string };
    const socket = await rawGraphQLWs(origin, made.key);
    expect((await t.call({ method: 'DELETE', url: `/v1/keys/${made.id}` })).statusCode).toBe(200);
    await expect
      .poll(() => socket.closed, { timeout: 30_000 })
      .toEqual({ code: 4403, reason: 'The API key was revoked; this subscription has ended.' });
  });
});

/** A socket that sent connection_init with `key`: acknowledged (and open), or closed, and how. */
async function settledSocket(origin: string, key: string) {
  const socket = new WebSocket(`${origin.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const state = { acked: false, closed: null as { code: number; reason: string } | null };
  socket.on('message', (data) => void ((JSON.parse(String(data)) as RawMessage).type === 'connection_ack' && (state.acked = true)));
  socket.on('close', (code, reason) => void (state.closed = { code, reason: String(reason) }));
  socket.on('error', () => undefined);
  socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${key}` } })));
  await expect.poll(() => state.acked || state.closed !== null, { timeout: 30_000 }).toBe(true);
  return { ...state, close: () => socket.close() };
}

interface RawMessage {
  id?: string;
  type: string;
  payload?: unknown;
}

/** A graphql-transport-ws connection spoken by hand, acknowledged: what it received, and how it closed (null while open). */
async function rawGraphQLWs(origin: string, key: string) {
  const socket = new WebSocket(`${origin.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const received: RawMessage[] = [];
  const state = { closed: null as { code: number; reason: string } | null };
  socket.on('message', (data) => void received.push(JSON.parse(String(data)) as RawMessage));
  socket.on('close', (code, reason) => void (state.closed = { code, reason: String(reason) }));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${key}` } }));
  await expect.poll(() => received.some((m) => m.type === 'connection_ack'), { timeout: 30_000 }).toBe(true);
  return {
    received,
    get closed() {
      return state.closed;
    },
    send: (message: RawMessage) => socket.send(JSON.stringify(message)),
    close: () => socket.close(),
  };
}
