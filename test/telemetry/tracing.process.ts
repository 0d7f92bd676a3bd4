import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '../helpers/fixtures.ts';
import type { RunningServer } from '../helpers/cli.ts';
import { startOtlpReceiver } from '../helpers/otlp-receiver.ts';
import type { OtlpReceiver, ReceivedSpan } from '../helpers/otlp-receiver.ts';
import { ENGINE } from '../helpers/test-database.ts';

const KEY = /psk_[A-Za-z0-9]{40}/;
const SERVER = 2;
const CONSUMER = 5;

/** A caller's W3C trace context: a new trace id and a parent span id of its own. */
function callerContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The spans of one trace, once `count` of them have arrived. */
async function trace(receiver: OtlpReceiver, traceId: string, atLeast: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const of = () => receiver.spans.filter((span) => span.traceId === traceId);
  await expect.poll(() => atLeast(of()), { timeout: 30_000, interval: 100 }).toBe(true);
  return of();
}

const named = (spans: ReceivedSpan[], name: string) => spans.find((span) => span.name === name);
const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan | undefined) =>
  spans.filter((span) => span.parentSpanId === parent?.spanId);

async function call(server: RunningServer, key: string, path: string, init: { body?: unknown; traceparent?: string } = {}) {
  const response = await fetch(`${server.origin}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(init.traceparent ? { traceparent: init.traceparent } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('OpenTelemetry traces, exported over OTLP/HTTP to a real receiver', { timeout: 180_000 }, () => {
  it('one trace per request from the edge to the database, and a delivery linked to the request that queued it', async ({
    databaseUrl,
    serve,
    webhook,
  }) => {
    const receiver = await startOtlpReceiver();
    const hook = await webhook(() => 'ok');
    try {
      const server = await serve({
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_SERVICE_NAME: 'petstore-under-test',
        MESSAGE_WEBHOOK_URL: hook.url,
        MESSAGE_POLL_MS: '50',
      });
      const key = server.output().match(KEY)?.[0] ?? '';
      const dbSystem = ENGINE === 'postgres' ? 'postgresql' : 'sqlite';

      // REST: the caller's trace continues; the service call and its statements are children.
      const rest = callerContext();
      expect((await call(server, key, '/v1/pets', { body: { name: 'Rex', categoryId: 1 }, traceparent: rest.traceparent })).status).toBe(
        201,
      );
      const restSpans = await trace(receiver, rest.traceId, (spans) => spans.some((s) => s.name === 'POST /v1/pets'));
      const restServer = named(restSpans, 'POST /v1/pets');
      expect(restServer).toMatchObject({
        kind: SERVER,
        parentSpanId: rest.spanId,
        service: 'petstore-under-test',
        attributes: expect.objectContaining({ 'http.request.method': 'POST', 'http.route': '/v1/pets', 'http.response.status_code': 201 }),
      });
      const createPet = named(childrenOf(restSpans, restServer), 'pets.createPet');
      expect(createPet).toBeDefined();
      const inserts = childrenOf(restSpans, createPet).filter((s) => s.attributes['db.operation.name'] === 'INSERT');
      expect(inserts.length).toBeGreaterThanOrEqual(1);
      expect(inserts[0]?.attributes).toMatchObject({
        'db.system.name': dbSystem,
        'db.query.text': expect.stringMatching(/^insert into "pets"/),
      });
      // Statements carry their text with placeholders, never the values sent.
      expect(JSON.stringify(restSpans)).not.toContain('Rex');

      // GraphQL: the server span takes the operation's name; parse, validate and execute under it.
      const query = callerContext();
      expect(
        (
          await call(server, key, '/graphql', {
            body: { query: 'query ListPets { pets(first: 5) { nodes { id } } }' },
            traceparent: query.traceparent,
          })
        ).status,
      ).toBe(200);
      const gqlSpans = await trace(receiver, query.traceId, (spans) => spans.some((s) => s.name === 'query ListPets'));
      const gqlServer = named(gqlSpans, 'query ListPets');
      expect(gqlServer).toMatchObject({
        kind: SERVER,
        attributes: expect.objectContaining({
          'graphql.operation.name': 'ListPets',
          'graphql.operation.type': 'query',
          'http.route': '/graphql',
        }),
      });
      expect(childrenOf(gqlSpans, gqlServer).map((s) => s.name)).toEqual(
        expect.arrayContaining(['graphql.parse', 'graphql.validate', 'graphql.execute']),
      );
      const listPets = named(childrenOf(gqlSpans, named(gqlSpans, 'graphql.execute')), 'pets.listPets');
      expect(childrenOf(gqlSpans, listPets).some((s) => s.attributes['db.operation.name'] === 'SELECT')).toBe(true);

      // MCP: a tool call's server span is named after the tool, with MCP's and GenAI's attributes;
      // its operation's phases are its children, as a GraphQL request's are.
      const agent = callerContext();
      const tool = await fetch(`${server.origin}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          traceparent: agent.traceparent,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_pets', arguments: { first: 1 } } }),
      });
      expect(tool.status).toBe(200);
      const mcpSpans = await trace(receiver, agent.traceId, (spans) => spans.some((s) => s.name === 'tools/call list_pets'));
      const mcpServer = named(mcpSpans, 'tools/call list_pets');
      expect(mcpServer).toMatchObject({
        kind: SERVER,
        parentSpanId: agent.spanId,
        attributes: expect.objectContaining({
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'list_pets',
          'gen_ai.operation.name': 'execute_tool',
          'graphql.operation.name': 'list_pets',
          'http.route': '/mcp',
        }),
      });
      expect(childrenOf(mcpSpans, mcpServer).map((s) => s.name)).toEqual(
        expect.arrayContaining(['graphql.parse', 'graphql.validate', 'graphql.execute']),
      );

      // A message: its delivery is a trace of its own, linked to the request that queued it,
      // and the webhook receives that delivery's traceparent.
      const send = callerContext();
      const queued = await call(server, key, '/messages', { body: { message: 'traced' }, traceparent: send.traceparent });
      expect(queued.status).toBe(201);
      await expect.poll(() => receiver.spans.some((s) => s.name === 'deliver message'), { timeout: 30_000, interval: 100 }).toBe(true);
      const delivery = receiver.spans.find((s) => s.name === 'deliver message');
      expect(delivery).toMatchObject({
        kind: CONSUMER,
        attributes: expect.objectContaining({ 'messaging.message.id': queued.body.id, 'petstore.delivery.attempt': 1 }),
      });
      // A root of its own: the request that queued the message ended long before.
      expect(delivery?.parentSpanId ?? '').toBe('');
      expect(delivery?.traceId).not.toBe(send.traceId);
      expect(delivery?.links.map((link) => link.traceId)).toEqual([send.traceId]);
      await expect.poll(() => hook.received.length, { timeout: 30_000 }).toBe(1);
      expect(hook.received[0]?.traceparent).toMatch(new RegExp(`^00-${delivery?.traceId}-[0-9a-f]{16}-01$`));

      // Probes are not traced: a balancer sends them twice a second to every instance.
      for (const probe of ['/healthz', '/readyz']) expect((await fetch(`${server.origin}${probe}`)).status).toBe(200);

      // The access lines carry the trace id to find a request's spans by.
      // Stopping sends every span still buffered: none is a probe's.
      expect(await server.stop()).toBe(0);
      expect(receiver.spans.filter((s) => /healthz|readyz/.test(String(s.attributes['url.path'])))).toEqual([]);
      const access = server
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"msg":"request"'))
        .map((line) => JSON.parse(line) as { url: string; traceId?: string });
      expect(access.find((line) => line.url === '/v1/pets')?.traceId).toBe(rest.traceId);
      expect(access.find((line) => line.url === '/graphql')?.traceId).toBe(query.traceId);
      expect(access.find((line) => line.url === '/mcp')).toMatchObject({ traceId: agent.traceId, operation: 'tools/call list_pets' });
    } finally {
      await receiver.close();
    }
  });

  it('exports OTLP/HTTP protobuf by default (the standard protocol), and sends nothing at all while no OTEL_* setting asks', async ({
    databaseUrl,
    serve,
  }) => {
    const receiver = await startOtlpReceiver();
    try {
      const traced = await serve({
        DATABASE_URL: databaseUrl,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '50',
      });
      const key = traced.output().match(KEY)?.[0] ?? '';
      const caller = callerContext();
      expect((await call(traced, key, '/v1/pets', { traceparent: caller.traceparent })).status).toBe(200);
      const idBytes = Buffer.from(caller.traceId, 'hex');
      await expect.poll(() => receiver.exports.some((e) => e.body.includes(idBytes)), { timeout: 30_000, interval: 100 }).toBe(true);
      expect(receiver.exports[0]).toMatchObject({ path: '/v1/traces', contentType: 'application/x-protobuf' });
      expect(await traced.stop()).toBe(0);
      const exported = receiver.exports.length;

      const untraced = await serve({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
      expect((await call(untraced, key, '/v1/pets', { traceparent: callerContext().traceparent })).status).toBe(200);
      expect(await untraced.stop()).toBe(0);
      expect(receiver.exports.length).toBe(exported);
      expect(untraced.stdout()).not.toMatch(/"traceId"/);
      expect(untraced.stdout()).toMatch(/"tracing":"off"/);
    } finally {
      await receiver.close();
    }
  });
});

/**
 * The span guarantee of the matrix (test/matrix/guarantees.test.ts), here because the OpenTelemetry
 * SDK is one per process: on every transport that carries a trace context, the caller's trace
 * continues in a server span, and the operation's own span (GraphQL's execute or subscribe, MCP's
 * tool call, REST's service call) is in it.
 */
const SPAN_TRANSPORTS: {
  name: string;
  send: (server: RunningServer, key: string, traceparent: string) => Promise<number>;
  span: RegExp;
}[] = [
  { name: 'REST', send: (server, key, traceparent) => status(server, '/v1/pets?limit=2', { key, traceparent }), span: /^pets\.listPets$/ },
  ...(
    [
      ['GraphQL POST (JSON)', 'application/json'],
      ['GraphQL over SSE', 'text/event-stream'],
      ['GraphQL over multipart', 'multipart/mixed'],
    ] as const
  ).map(([name, accept]) => ({
    name,
    send: (server: RunningServer, key: string, traceparent: string) =>
      status(server, '/graphql', { key, traceparent, accept, body: { query: '{ pets(first: 2) { nodes { id } } }' } }),
    span: /^graphql\.execute$/,
  })),
  {
    name: 'GraphQL GET',
    send: (server, key, traceparent) =>
      // Past the response cache (an answer kept runs no operation; its span is the versions read).
      status(server, `/graphql?query=${encodeURIComponent('{ pets(first: 2) { nodes { id } } }')}`, {
        key,
        traceparent,
        headers: { 'cache-control': 'no-cache' },
      }),
    span: /^graphql\.execute$/,
  },
  ...(
    [
      ['subscription over SSE', 'text/event-stream'],
      ['subscription over multipart (Apollo)', 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0'],
    ] as const
  ).map(([name, accept]) => ({
    name,
    send: (server: RunningServer, key: string, traceparent: string) =>
      status(server, '/graphql', { key, traceparent, accept, body: { query: 'subscription { petCreated { id } }' }, leave: true }),
    span: /^graphql\.subscribe$/,
  })),
  {
    name: 'federation _entities',
    send: (server, key, traceparent) =>
      status(server, '/graphql', {
        key,
        traceparent,
        body: {
          query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Pet { id } } }',
          variables: { r: [{ __typename: 'Pet', id: '1' }] },
        },
      }),
    span: /^graphql\.execute$/,
  },
  {
    name: 'MCP tools/call',
    send: (server, key, traceparent) =>
      status(server, '/mcp', {
        key,
        traceparent,
        accept: 'application/json, text/event-stream',
        headers: { 'mcp-protocol-version': '2025-11-25' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_pets', arguments: { first: 1 } } },
      }),
    span: /^graphql\.execute$/,
  },
];

/** Cells a transport does not carry, and why (as the matrix lists its own). */
const SPAN_NOT_CARRIED: Record<string, string> = {
  'graphql-ws (subscriptions)':
    'a socket carries no trace context (a browser cannot set headers on a WebSocket, and graphql-ws’s messages have no place for one): each subscribe’s spans are a trace of their own',
};

/** A request's status; `leave`: a stream, closed once its first bytes came, as a page that moves on does. */
async function status(
  server: RunningServer,
  path: string,
  init: { key: string; traceparent: string; accept?: string; body?: unknown; headers?: Record<string, string>; leave?: boolean },
): Promise<number> {
  const leave = new AbortController();
  const response = await fetch(`${server.origin}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${init.key}`,
      traceparent: init.traceparent,
      accept: init.accept ?? 'application/json',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: leave.signal,
  });
  if (init.leave && response.status === 200) {
    await response.body?.getReader().read();
    leave.abort();
  } else await response.arrayBuffer();
  return response.status;
}

describe('the span: the caller’s trace continues on every transport that carries one', { timeout: 180_000 }, () => {
  it('lists every transport of the matrix, carried or not', () => {
    expect([...SPAN_TRANSPORTS.map((t) => t.name), ...Object.keys(SPAN_NOT_CARRIED)].sort()).toEqual(
      [
        'REST',
        'GraphQL POST (JSON)',
        'GraphQL GET',
        'GraphQL over SSE',
        'GraphQL over multipart',
        'subscription over SSE',
        'subscription over multipart (Apollo)',
        'graphql-ws (subscriptions)',
        'federation _entities',
        'MCP tools/call',
      ].sort(),
    );
  });

  it('continues it in a server span holding the operation’s span', async ({ databaseUrl, serve }) => {
    const receiver = await startOtlpReceiver();
    try {
      const server = await serve({
        DATABASE_URL: databaseUrl,
        GRAPHQL_FEDERATION: 'true',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      });
      const key = server.output().match(KEY)?.[0] ?? '';
      for (const transport of SPAN_TRANSPORTS) {
        const caller = callerContext();
        expect(await transport.send(server, key, caller.traceparent), transport.name).toBe(200);
        const spans = await trace(
          receiver,
          caller.traceId,
          (all) => all.some((s) => s.kind === SERVER) && all.some((s) => transport.span.test(s.name)),
        ).catch(() => {
          const seen = receiver.spans.filter((span) => span.traceId === caller.traceId).map((span) => `${span.name} (${span.kind})`);
          throw new Error(
            `${transport.name}: no server span with ${transport.span} in it; the trace holds: ${seen.join(', ') || 'nothing'}`,
          );
        });
        const root = spans.find((s) => s.kind === SERVER);
        expect(root?.parentSpanId, transport.name).toBe(caller.spanId);
        // The operation's span is inside the server span (its child, or further down).
        const inside = (span: ReceivedSpan | undefined): boolean =>
          span !== undefined && (span.parentSpanId === root?.spanId || inside(spans.find((s) => s.spanId === span.parentSpanId)));
        expect(inside(spans.find((s) => transport.span.test(s.name))), transport.name).toBe(true);
      }
      expect(await server.stop()).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});
