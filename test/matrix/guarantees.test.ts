import WebSocket from 'ws';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import type { Scope } from '../../src/services/access-tokens/scopes.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { startInstanceOn } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { callTool, listen } from '../helpers/mcp.ts';

// Every guarantee on every transport that carries it (issue 46): one test per cell of
// guarantee × transport, the same assertion through each transport's own wire format. A
// transport added later joins by being added to TRANSPORTS; a cell a transport cannot carry is
// listed in NOT_CARRIED with the reason, so a gap is a decision written down, never an
// accident. Where a guarantee fails, its cell names the transport. The span's cells are in
// test/telemetry/tracing.process.ts: the OpenTelemetry SDK is one per process.

/** What a client sees of one exchange, whatever the transport: its status, the catalogue's code if refused, the data if answered. */
interface Outcome {
  status: number;
  code: string | null;
  data: unknown;
  replayed: boolean;
}

type Headers = Record<string, string>;

interface Transport {
  name: string;
  /** A read: a page of pets (`first` of them); `heavy` asks for more than the cost limit allows. */
  read(t: TestApp, headers: Headers, options?: { heavy?: boolean }): Promise<Outcome>;
  /** A write: create a pet named `name`; undefined where the transport carries no writes. */
  write?(t: TestApp, headers: Headers, name: string): Promise<Outcome>;
  /** Any query's text, where the transport runs queries of the client's writing. */
  query?(t: TestApp, headers: Headers, text: string): Promise<Outcome>;
  /** The caller's orders' ids, where the transport lists them by a route of its own rather than a query's text (REST). */
  orders?(t: TestApp, headers: Headers): Promise<string[]>;
  /** Something held open for the credential (a stream, a socket), where the transport holds one: how it came out, and how to let it go. */
  hold?(t: TestApp, headers: Headers): Promise<Held>;
  /** A subscription to new pets held open, where the transport streams events: what it received is read by `received`. */
  watch?(t: TestApp, headers: Headers): Promise<Held>;
}

interface Held {
  outcome: Outcome;
  release(): void;
  /** Everything the client received on it so far, as text. */
  received(): string;
}

const PAGE = '{ pets(first: 2) { nodes { id name } } }';
// Ten pages of 100 with their orders and their pets: over the 5,000 the cost limit allows.
const HEAVY = `{ ${Array.from({ length: 10 }, (_, i) => `p${i}: pets(first: 100) { nodes { id orders { id pet { name } } } }`).join(' ')} }`;
const create = (name: string) => `mutation { createPet(input: { name: "${name}", categoryId: 1 }) { id name } }`;

/** The outcome of a GraphQL result, as JSON text: its first error's code, else its data. */
function fromGraphQL(status: number, text: string, replayed: boolean): Outcome {
  const body = JSON.parse(text) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
  return { status, code: body.errors?.[0]?.extensions?.code ?? null, data: body.data ?? null, replayed };
}

/** GraphQL over HTTP POST with `accept`, the answer's one result read out of its format (JSON, SSE's next event, the multipart part). */
async function postGraphQL(t: TestApp, query: string, headers: Headers, accept: string, variables?: object): Promise<Outcome> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', accept, ...headers },
    payload: { query, ...(variables ? { variables } : {}) },
  });
  const replayed = res.headers['idempotent-replayed'] === 'true';
  const json =
    accept === 'text/event-stream'
      ? (/^data: (\{.*\})$/m.exec(res.body)?.[1] ?? res.body)
      : accept.startsWith('multipart/mixed')
        ? (/\r\n\r\n(\{[\s\S]*?\})\r\n-/.exec(res.body)?.[1] ?? res.body)
        : res.body;
  return fromGraphQL(res.statusCode, json, replayed);
}

/**
 * A subscription over HTTP, as a stream of `accept` (GraphQL over SSE; Apollo's multipart): its
 * refusal (the answer's status and its first error's code, whatever the format) or that it was
 * accepted (its first bytes arrived), then closed by the client as a page that moves on would.
 */
async function overHttpStream(t: TestApp, query: string, headers: Headers, accept: string): Promise<Outcome> {
  const origin = await t.listen();
  const leave = new AbortController();
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, ...headers },
    body: JSON.stringify({ query }),
    signal: leave.signal,
  });
  if (res.status !== 200) {
    const code = /"code":"([A-Z_]+)"/.exec(await res.text())?.[1] ?? 'ERROR';
    return { status: res.status, code, data: null, replayed: false };
  }
  await res.body?.getReader().read();
  leave.abort();
  return { status: 200, code: null, data: 'subscribed', replayed: false };
}

/** A subscription held open over HTTP as a stream of `accept`: accepted once its first bytes arrived, or refused with its status and code. */
async function heldHttpStream(t: TestApp, headers: Headers, accept: string): Promise<Held> {
  const leave = new AbortController();
  const res = await fetch(`${await t.listen()}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, ...headers },
    body: JSON.stringify({ query: 'subscription { petCreated { id name } }' }),
    signal: leave.signal,
  });
  const release = () => leave.abort();
  if (res.status !== 200) {
    const text = await res.text();
    const code = /"code":"([A-Z_]+)"/.exec(text)?.[1] ?? 'ERROR';
    return { outcome: { status: res.status, code, data: null, replayed: false }, release, received: () => text };
  }
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const first = await reader?.read();
  text += decoder.decode(first?.value, { stream: true });
  // What follows is read as it comes, until the client lets it go.
  void (async () => {
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read())
      text += decoder.decode(chunk.value, { stream: true });
  })().catch(() => undefined);
  return { outcome: { status: 200, code: null, data: 'subscribed', replayed: false }, release, received: () => text };
}

/**
 * A graphql-ws socket held open and acknowledged, subscribing to `subscription` once acknowledged
 * (to nothing without one): accepted, or closed with its refusal's code.
 */
async function heldSocket(t: TestApp, headers: Headers, subscription?: string): Promise<Held> {
  const socket = new WebSocket(`${(await t.listen()).replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const release = () => socket.close();
  const messages: string[] = [];
  const received = () => messages.join('\n');
  return new Promise<Held>((resolve, reject) => {
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: headers.authorization ?? '' } })),
    );
    socket.on('message', (data) => {
      messages.push(data.toString());
      if ((JSON.parse(data.toString()) as { type: string }).type !== 'connection_ack') return;
      if (subscription) socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: subscription } }));
      resolve({ outcome: { status: 200, code: null, data: 'held', replayed: false }, release, received });
    });
    socket.on('close', (code, reason) =>
      resolve({ outcome: { status: code, code: closeCodeOf(code, reason.toString()), data: null, replayed: false }, release, received }),
    );
    socket.on('error', reject);
  });
}

/** The catalogue's code a graphql-ws close stands for, read from its code and reason. */
function closeCodeOf(code: number, reason: string): string {
  if (code === 4429) return reason.startsWith('At most') ? 'TOO_MANY_SUBSCRIPTIONS' : 'RATE_LIMITED';
  return /API key|access token|Missing/.test(reason) ? 'UNAUTHORIZED' : `closed ${code}`;
}

/** A subscription over graphql-ws: its refusal (the close's reason, or the subscribe's error) or that it was accepted. */
async function overSocket(t: TestApp, query: string, headers: Headers): Promise<Outcome> {
  const origin = (await t.listen()).replace('http', 'ws');
  return new Promise<Outcome>((resolve, reject) => {
    const socket = new WebSocket(`${origin}/graphql`, 'graphql-transport-ws');
    const done = (outcome: Outcome) => {
      socket.close();
      resolve(outcome);
    };
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: headers.authorization ?? '' } })),
    );
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; payload?: { extensions?: { code?: string } }[] };
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        // No event is due: a subscribe that is not refused at once was accepted.
        setTimeout(() => done({ status: 200, code: null, data: 'subscribed', replayed: false }), 300);
      }
      if (message.type === 'error')
        done({ status: 400, code: message.payload?.[0]?.extensions?.code ?? 'ERROR', data: null, replayed: false });
    });
    socket.on('close', (code, reason) =>
      resolve({ status: code, code: closeCodeOf(code, reason.toString()), data: null, replayed: false }),
    );
    socket.on('error', reject);
  });
}

/** The API's petCreated listened to over MCP (subscriptions/listen, 2026-07-28): accepted once acknowledged, or its refusal's status and code. */
async function heldListen(t: TestApp, headers: Headers): Promise<Held> {
  const listening = await listen(t, headers, { resourceSubscriptions: ['petstore://subscriptions/pet_created'] });
  const release = () => void listening.cancel();
  const received = () => JSON.stringify(listening.messages);
  if (listening.status !== 200) {
    const code = (listening.messages[0] as { error?: { data?: { code?: string } } } | undefined)?.error?.data?.code ?? 'ERROR';
    return { outcome: { status: listening.status, code, data: null, replayed: false }, release, received };
  }
  await expect.poll(() => listening.messages.length).toBeGreaterThan(0);
  return { outcome: { status: 200, code: null, data: 'subscribed', replayed: false }, release, received };
}

/** A tool call over MCP (2026-07-28): its refusal's or failure's code, its structured content. An Idempotency-Key goes in the call's `_meta`, as an agent sends it. */
async function overMcp(t: TestApp, tool: string, args: Record<string, unknown>, headers: Headers): Promise<Outcome> {
  const { 'idempotency-key': key, ...rest } = headers;
  const { res, body, data, failure } = await callTool(t, tool, args, {
    headers: rest,
    era: 'modern',
    ...(key ? { meta: { 'io.petstore/idempotency-key': key } } : {}),
  });
  return {
    status: res.statusCode,
    code: body.error?.data?.code ?? failure?.code ?? null,
    data,
    replayed: res.headers['idempotent-replayed'] === 'true',
  };
}

const overSse = (t: TestApp, headers: Headers) => heldHttpStream(t, headers, 'text/event-stream');
const overMultipart = (t: TestApp, headers: Headers) =>
  heldHttpStream(t, headers, 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0');

const TRANSPORTS: Transport[] = [
  {
    name: 'REST',
    async read(t, headers, { heavy } = {}) {
      const res = await t.app.inject({ url: `/v1/pets?limit=${heavy ? 500 : 2}`, headers });
      const body = res.json() as { code?: string };
      return {
        status: res.statusCode,
        code: res.statusCode >= 400 ? (body.code ?? null) : null,
        data: res.statusCode < 400 ? body : null,
        replayed: false,
      };
    },
    async write(t, headers, name) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/pets', headers, payload: { name, categoryId: 1 } });
      const body = res.json() as { code?: string };
      return {
        status: res.statusCode,
        code: res.statusCode >= 400 ? (body.code ?? null) : null,
        data: res.statusCode < 400 ? body : null,
        replayed: res.headers['idempotent-replayed'] === 'true',
      };
    },
    async orders(t, headers) {
      const res = await t.app.inject({ url: '/v1/store/orders', headers });
      return (res.json() as { id: number }[]).map((order) => String(order.id));
    },
  },
  {
    name: 'GraphQL POST (JSON)',
    read: (t, headers, { heavy } = {}) => postGraphQL(t, heavy ? HEAVY : PAGE, headers, 'application/json'),
    write: (t, headers, name) => postGraphQL(t, create(name), headers, 'application/json'),
    query: (t, headers, text) => postGraphQL(t, text, headers, 'application/json'),
  },
  {
    name: 'GraphQL GET',
    read(t, headers, { heavy } = {}) {
      return this.query?.(t, headers, heavy ? HEAVY : PAGE) as Promise<Outcome>;
    },
    async query(t, headers, text) {
      const res = await t.app.inject({
        url: `/graphql?query=${encodeURIComponent(text)}`,
        headers: { accept: 'application/json', ...headers },
      });
      return fromGraphQL(res.statusCode, res.body, false);
    },
  },
  {
    name: 'GraphQL over SSE',
    read: (t, headers, { heavy } = {}) => postGraphQL(t, heavy ? HEAVY : PAGE, headers, 'text/event-stream'),
    write: (t, headers, name) => postGraphQL(t, create(name), headers, 'text/event-stream'),
    query: (t, headers, text) => postGraphQL(t, text, headers, 'text/event-stream'),
  },
  {
    name: 'GraphQL over multipart',
    read: (t, headers, { heavy } = {}) => postGraphQL(t, heavy ? HEAVY : PAGE, headers, 'multipart/mixed'),
    write: (t, headers, name) => postGraphQL(t, create(name), headers, 'multipart/mixed'),
    query: (t, headers, text) => postGraphQL(t, text, headers, 'multipart/mixed'),
  },
  {
    name: 'subscription over SSE',
    read: (t, headers) => overHttpStream(t, 'subscription { petCreated { id name } }', headers, 'text/event-stream'),
    hold: overSse,
    // What it holds open is a subscription to new pets already.
    watch: overSse,
  },
  {
    name: 'subscription over multipart (Apollo)',
    read: (t, headers) =>
      overHttpStream(t, 'subscription { petCreated { id name } }', headers, 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0'),
    hold: overMultipart,
    watch: overMultipart,
  },
  {
    name: 'graphql-ws (subscriptions)',
    read: (t, headers) => overSocket(t, 'subscription { petCreated { id name } }', headers),
    hold: (t, headers) => heldSocket(t, headers),
    watch: (t, headers) => heldSocket(t, headers, 'subscription { petCreated { id name } }'),
  },
  {
    name: 'federation _entities',
    read: (t, headers, { heavy } = {}) =>
      postGraphQL(t, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Pet { id name } } }', headers, 'application/json', {
        r: Array.from({ length: heavy ? 1001 : 2 }, (_, i) => ({ __typename: 'Pet', id: String(i + 1) })),
      }),
  },
  {
    name: 'MCP subscriptions/listen',
    read: async (t, headers) => {
      const held = await heldListen(t, headers);
      held.release();
      return held.outcome;
    },
    hold: heldListen,
    watch: heldListen,
  },
  {
    name: 'MCP tools/call',
    read: (t, headers) => overMcp(t, 'list_pets', { first: 2 }, headers),
    write: (t, headers, name) => overMcp(t, 'add_pet', { name, categoryId: 1 }, headers),
  },
  {
    // An agent's own document (MCP_EXECUTE_TOOLS, on in this file's apps).
    name: 'MCP execute_graphql',
    read: (t, headers, { heavy } = {}) => overMcp(t, 'execute_graphql', { query: heavy ? HEAVY : PAGE }, headers),
    write: (t, headers, name) => overMcp(t, 'execute_graphql', { query: create(name) }, headers),
    query: (t, headers, text) => overMcp(t, 'execute_graphql', { query: text }, headers),
  },
];

/** Cells a transport does not carry, and why: written down, so a missing cell is a decision. */
const NOT_CARRIED: Record<string, Record<string, string>> = {
  'the cost limit': {
    REST: 'a REST request is bounded by its parameters instead (limit 1-100: 400 VALIDATION_FAILED for 500, as here)',
    'subscription over SSE': 'a subscription has one root field and the depth limit bounds what is under it: none can reach the limit',
    'subscription over multipart (Apollo)': 'as over SSE: one root field, bounded by the depth limit',
    'graphql-ws (subscriptions)': 'a subscription has one root field and the depth limit bounds what is under it: none can reach the limit',
    'MCP subscriptions/listen':
      'it runs the manifest’s subscriptions (one root field each, bounded by the depth limit), never a document of the agent’s',
    'MCP tools/call':
      'a tool runs a fixed document: the default tools are bounded by their arguments (first ≤ 100); a manifest tool over the limit is refused QUERY_TOO_COMPLEX (test/mcp/tool-catalogue.test.ts)',
  },
  'the response cache keeps accounts apart': {
    'subscription over SSE': 'a stream is never kept, and an event is the subscriber’s own',
    'subscription over multipart (Apollo)': 'a stream is never kept, and an event is the subscriber’s own',
    'graphql-ws (subscriptions)': 'a stream is never kept, and an event is the subscriber’s own',
    'MCP subscriptions/listen': 'a stream is never kept, and an event is the subscriber’s own',
    'federation _entities': 'a query like any other, on the path of GraphQL POST (its row here)',
    'MCP tools/call': 'a tool call is never kept: each runs (the response cache serves GraphQL over HTTP)',
    'MCP execute_graphql': 'a tool call is never kept: each runs (the response cache serves GraphQL over HTTP)',
  },
};

const carried = (guarantee: string) => TRANSPORTS.filter((transport) => !NOT_CARRIED[guarantee]?.[transport.name]);
const writers = TRANSPORTS.filter((transport) => transport.write !== undefined);

// Every app here: federation on (its _entities row), and MCP's execute tools on (their row).
const ENV = { GRAPHQL_FEDERATION: 'true', MCP_EXECUTE_TOOLS: 'true' };
it.override('appEnv', { ...ENV, UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '100000' });

/** Two pets to read, as the reads here expect (federation's references name pets 1 and 2). */
const seed = async (t: TestApp) => {
  for (const name of ['Ada', 'Bo']) await t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1 } });
};
it.beforeAll(async ({ t }) => seed(t));

/** A transport's name as an Idempotency-Key may hold it (visible ASCII, no spaces). */
const slug = (name: string) => name.replace(/[^A-Za-z0-9]+/g, '-');

let accounts = 0;
const keyFor = async (t: TestApp, scopes: Scope[] | null = null) => ({
  authorization: `Bearer ${(await createApiKey(t.db, `matrix-${++accounts}`, { scopes })).key}`,
});

describe('a credential is required, and a refused one says why', () => {
  it.for(TRANSPORTS.map((transport) => [transport.name, transport] as const))('%s', async ([, transport], { t }) => {
    const none = await transport.read(t, {});
    expect(none.code).toBe('UNAUTHORIZED');
    const bad = await transport.read(t, { authorization: `Bearer psk_${'0'.repeat(40)}` });
    expect(bad.code).toBe('UNAUTHORIZED');
    expect((await transport.read(t, await keyFor(t))).code).toBeNull();
  });
});

describe('scopes: a read-only credential reads, and never writes, replays included', () => {
  it.for(writers.map((transport) => [transport.name, transport] as const))('%s', async ([name, transport], { t }) => {
    const reader = await keyFor(t, ['petstore:read']);
    expect((await transport.read(t, reader)).code).toBeNull();
    const pets = await t.count('pets');
    expect((await transport.write?.(t, reader, `scoped-${name}`))?.code).toBe('INSUFFICIENT_SCOPE');
    // A write a full credential of the same account made, asked again by the reader with its Idempotency-Key: refused, not replayed.
    const writer = { ...(await keyFor(t)), 'idempotency-key': `scoped-${slug(name)}` };
    expect((await transport.write?.(t, writer, `scoped-${name}`))?.code).toBeNull();
    const replay = await transport.write?.(t, { ...reader, 'idempotency-key': `scoped-${slug(name)}` }, `scoped-${name}`);
    expect(replay?.code).toBe('INSUFFICIENT_SCOPE');
    expect(replay?.replayed).toBe(false);
    expect(await t.count('pets')).toBe(pets + 1);
  });
});

describe('the rate limit: a credential’s budget is spent the same way everywhere', () => {
  it.for(TRANSPORTS.map((transport) => [transport.name, transport] as const))('%s', async ([, transport], { makeApp }) => {
    const t = await makeApp({ ...ENV, RATE_LIMIT_PER_MINUTE: '3' });
    await t.db
      .insertInto('pets')
      .values([1, 2].map((id) => ({ name: `pet-${id}`, category_id: 1, status: 'available', created_at: new Date().toISOString() })))
      .execute();
    const key = await keyFor(t);
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await transport.read(t, key)).code);
    expect(codes).toEqual([null, null, null, 'RATE_LIMITED']);
  });
});

describe('what a credential holds open is charged as a request, and capped per credential, so it never takes another’s', () => {
  const holders = TRANSPORTS.filter((transport) => transport.hold !== undefined);
  it.for(holders.map((transport) => [transport.name, transport] as const))('%s', async ([, transport], { makeApp }) => {
    const t = await makeApp({ ...ENV, SUBSCRIPTIONS_PER_KEY: '2', RATE_LIMIT_PER_MINUTE: '3' });
    const [greedy, other] = [await keyFor(t), await keyFor(t)];
    const held: (Held | undefined)[] = [];
    try {
      for (let i = 0; i < 3; i++) held.push(await transport.hold?.(t, greedy));
      expect(held.map((one) => one?.outcome.code)).toEqual([null, null, 'TOO_MANY_SUBSCRIPTIONS']);
      // Another credential holds its own, and is served.
      held.push(await transport.hold?.(t, other));
      expect(held.at(-1)?.outcome.code).toBeNull();
      // Each was charged as a request (the refused one too, as a refused request is): the budget of 3 is spent.
      held.push(await transport.hold?.(t, greedy));
      expect(held.at(-1)?.outcome.code).toBe('RATE_LIMITED');
    } finally {
      for (const one of held) one?.release();
    }
  });
});

describe('the cost limit', () => {
  it.for(carried('the cost limit').map((transport) => [transport.name, transport] as const))('%s', async ([, transport], { t }) => {
    const key = await keyFor(t);
    const heavy = await transport.read(t, key, { heavy: true });
    expect(heavy.code).toBe('QUERY_TOO_COMPLEX');
    expect(heavy.status).toBeGreaterThanOrEqual(200);
  });

  it('REST bounds its page instead', async ({ t }) => {
    expect((await TRANSPORTS[0]?.read(t, await keyFor(t), { heavy: true }))?.code).toBe('VALIDATION_FAILED');
  });
});

describe('Idempotency-Key: a write stored once, its retry a replay, on every transport that writes', () => {
  it.for(writers.map((transport) => [transport.name, transport] as const))('%s', async ([name, transport], { t }) => {
    const headers = { ...(await keyFor(t)), 'idempotency-key': `once-${slug(name)}` };
    const pets = await t.count('pets');
    const first = await transport.write?.(t, headers, `once-${name}`);
    const again = await transport.write?.(t, headers, `once-${name}`);
    expect(first?.code).toBeNull();
    expect(again?.replayed).toBe(true);
    expect(again?.data).toEqual(first?.data);
    expect(await t.count('pets')).toBe(pets + 1);
  });
});

describe('the response cache keeps accounts apart', () => {
  it.for(carried('the response cache keeps accounts apart').map((transport) => [transport.name, transport] as const))(
    '%s',
    async ([, transport], { makeApp }) => {
      const t = await makeApp(ENV);
      const [alice, bob] = [await keyFor(t), await keyFor(t)];
      const pet = (
        await t.app.inject({ method: 'POST', url: '/v1/pets', headers: alice, payload: { name: 'Cached', categoryId: 1 } })
      ).json() as {
        id: number;
      };
      await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: alice, payload: { petId: pet.id } });
      const ordersOf = async (headers: Headers) => {
        if (transport.orders) return transport.orders(t, headers);
        const { data } = (await transport.query?.(t, headers, '{ orders { nodes { id } } }')) ?? {};
        return (data as { orders: { nodes: { id: string }[] } }).orders.nodes.map((order) => order.id);
      };
      // The same read, twice each (the second may come from the cache): each account its own answer.
      for (let round = 0; round < 2; round++) {
        expect(await ordersOf(alice)).toEqual([expect.any(String)]);
        expect(await ordersOf(bob)).toEqual([]);
      }
    },
  );
});

describe('a write through another instance is seen at once: the next read shows it, an open stream gets its event', () => {
  it.for(TRANSPORTS.map((transport) => [transport.name, transport] as const))('%s', async ([, transport], { makeApp }) => {
    // Events from another instance's writes come by polling the database (SUBSCRIPTION_POLL_MS).
    const t = await makeApp({ ...ENV, SUBSCRIPTION_POLL_MS: '50' });
    const other = await startInstanceOn(t.databaseUrl, ENV);
    const key = await keyFor(t);
    let made = 0;
    const createThere = async () => {
      const res = await other.inject({
        method: 'POST',
        url: '/v1/pets',
        headers: key,
        payload: { name: `fresh-${++made}`, categoryId: 1 },
      });
      expect(res.statusCode).toBe(201);
      return `"fresh-${made}"`;
    };
    const watching = await transport.watch?.(t, key);
    try {
      if (watching) {
        expect(watching.outcome.code).toBeNull();
        // A pet created there until one reaches the stream here (a stream sees what is created after it began).
        const names: string[] = [];
        const seen = async () => {
          names.push(await createThere());
          return names.some((pet) => watching.received().includes(pet));
        };
        await expect.poll(seen, { timeout: 30_000, interval: 200 }).toBe(true);
        return;
      }
      // Read twice here first: the second may come from what this instance keeps (the response cache, the versions read).
      await transport.read(t, key);
      const before = await transport.read(t, key);
      expect(before.status).toBe(200);
      const pet = await createThere();
      expect(JSON.stringify(before.data)).not.toContain(pet);
      expect(JSON.stringify((await transport.read(t, key)).data)).toContain(pet);
    } finally {
      watching?.release();
      await other.close();
    }
  });
});

describe('an access line per exchange, naming the account', () => {
  it.for(TRANSPORTS.map((transport) => [transport.name, transport] as const))('%s', async ([, transport], { makeApp }) => {
    const lines: string[] = [];
    const t = await makeApp({ ...ENV, LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
    const key = await keyFor(t);
    lines.length = 0;
    await transport.read(t, key);
    // A socket's subscribe has its line as a request does (the upgrade itself is no request of Fastify's);
    // a stream's when it ends (the client closed it).
    const accessLines = () =>
      lines
        .map((line) => JSON.parse(line) as { msg: string; accountId?: number; status?: number })
        .filter((line) => line.msg === 'request');
    await expect.poll(() => accessLines().length, { timeout: 10_000 }).toBe(1);
    const access = accessLines();
    expect(access).toHaveLength(1);
    expect(access[0]?.status).toBe(200);
    expect(access[0]?.accountId).toEqual(expect.any(Number));
  });
});

describe('the metric: every exchange counted, by face', () => {
  it.for(TRANSPORTS.map((transport) => [transport.name, transport] as const))('%s', async ([name, transport], { makeApp }) => {
    const t = await makeApp({ ...ENV, METRICS_PORT: '0' });
    await seed(t);
    const key = await keyFor(t);
    // REST is counted per request; GraphQL per operation, whichever transport carried it; MCP per method and tool.
    const counted =
      name === 'REST'
        ? /^http_server_request_duration_seconds_count\{[^}]*http_route="\/v1\/pets"[^}]*\} (\d+)$/m
        : name === 'MCP subscriptions/listen'
          ? /^mcp_server_operation_duration_seconds_count\{mcp_method_name="subscriptions\/listen"[^}]*\} (\d+)$/m
          : name.startsWith('MCP')
            ? /^mcp_server_operation_duration_seconds_count\{mcp_method_name="tools\/call"[^}]*\} (\d+)$/m
            : /^graphql_server_operation_duration_seconds_count\{[^}]*\} (\d+)$/m;
    const count = async () =>
      [...(await t.scrape()).matchAll(new RegExp(counted.source, 'gm'))].reduce((sum, match) => sum + Number(match[1]), 0);
    const before = await count();
    await transport.read(t, key);
    await expect.poll(count).toBe(before + 1);
  });
});
