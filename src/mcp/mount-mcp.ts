import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import type { ExecutionResult } from 'graphql';
import type { Kysely } from 'kysely';
import type { Config } from '../config/load-config.ts';
import type { Database } from '../db/types.ts';
import { AppError, toErrorBody } from '../errors/index.ts';
import type { ErrorCode } from '../errors/index.ts';
import { unauthorized } from '../http/auth/bearer-token.ts';
import { errorHandler, replyWithError } from '../http/errors/error-handler.ts';
import { idempotencyHooks } from '../http/idempotency/idempotency-hooks.ts';
import { NO_STORE } from '../http/caching/cache-control.ts';
import { lineWhenClosedEarly } from '../http/logging/access-log.ts';
import type { OperationRunner } from '../http/operation-runner.ts';
import { MCP_ROUTE } from '../http/route-config.ts';
import { NO_SCOPES, SCOPES } from '../services/access-tokens/scopes.ts';
import type { Scope } from '../services/access-tokens/scopes.ts';
import { requestFingerprint } from '../services/idempotency/index.ts';
import { permits } from '../services/principal.ts';
import type { Principal } from '../services/principal.ts';
import { EventStream } from '../services/live/event-stream.ts';
import type { LiveFeed } from '../services/live/live-feed.ts';
import type { Metrics } from '../telemetry/metrics-types.ts';
import { callTool, failed } from './call-tool.ts';
import { errorAnswer, resultAnswer, statusOf } from './mcp-answer.ts';
import type { ServerInfo } from './mcp-answer.ts';
import { LEGACY_VERSIONS, MODERN_VERSIONS, readMessage, requestIdOf } from './mcp-message.ts';
import type { McpMessage } from './mcp-message.ts';
import { originAllowed } from './origin-allowed.ts';
import { agentResources } from './agent-resources.ts';
import { graphqlTools } from './graphql-tools.ts';
import { EVENTS_URI, toolCatalogue } from './tool-catalogue.ts';
import type { EventSource, Tool } from './tool-catalogue.ts';

export interface MountMcpOptions {
  /** Where subscriptions/listen streams are held, under each credential's cap, and ended when it stops working. */
  live: Pick<LiveFeed, 'openStream'>;
  /** The GraphQL pipeline the tools run through (mount-graphql.ts builds it). */
  runner: OperationRunner;
  config: Config;
  /** Where a tool call with an idempotency key keeps its result. */
  db: Kysely<Database>;
  metrics: Metrics;
  serverInfo: ServerInfo;
}

/** The path of this endpoint's RFC 9728 metadata: the well-known prefix before the endpoint's own path. */
export const MCP_RESOURCE_METADATA = `/.well-known/oauth-protected-resource${MCP_ROUTE}`;

/** Where an agent puts a tool call's idempotency key: the call's `_meta`, as MCP carries what a request adds. */
export const IDEMPOTENCY_META_KEY = 'io.petstore/idempotency-key';

/** A notification a listen stream carries. */
interface Outbound {
  method: string;
  params: object;
}

/** Resource subscriptions one listen may carry. */
const MAX_EVENT_SOURCES = 10;

/** Where a resources/updated notification of an event source carries the event's data (a `_meta` key of this server's). */
export const EVENT_META_KEY = 'io.petstore/event';

/** A GraphQL result's first error as the catalogue's refusal (its code and words, as the GraphQL face answered it). */
function appErrorOf(result: ExecutionResult): AppError {
  const error = result.errors?.[0];
  const code = (error?.extensions?.code as ErrorCode | undefined) ?? 'INTERNAL_ERROR';
  return AppError.worded(code, error?.message ?? 'The subscription could not start.');
}

/** How often an idle subscriptions/listen stream says it is alive (a comment line), so proxies keep it open. */
const KEEP_ALIVE_MS = 15_000;

/** The body the endpoint reads: one JSON-RPC message, its arguments within. */
const MAX_BODY_BYTES = 64 * 1024;

/** tools/list in 2026-07-28 says how long its answer holds: the tools change only with a deployment (or the caller's scopes). */
const TOOLS_TTL_MS = 60_000;

const INSTRUCTIONS =
  "The pet store's API: list, get and add pets, send messages, place and follow orders. Each tool is a GraphQL operation of this server; " +
  "its result is the operation's data. A failed call's text is the API's Error body (code, message). Pass `_meta[\"io.petstore/idempotency-key\"]` " +
  'on a write you may retry: the retry answers the first result and changes nothing.';

/** What the MCP route works out of one request, hanging on the request itself (no table keyed by requests). */
interface McpExchange {
  message: McpMessage | null;
  tool: Tool | null;
  /** Framed already (a refusal, a 202): onSend leaves it be. */
  framed: boolean;
  /** The catalogue code the request failed with, for the metrics. */
  failure: string | undefined;
  /** Observed in the metrics already (a listen, once acknowledged): onResponse leaves it be. */
  observed: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    mcp: McpExchange | null;
  }
}

function exchangeOf(request: FastifyRequest): McpExchange {
  return (request.mcp ??= { message: null, tool: null, framed: false, failure: undefined, observed: false });
}

/** The origin clients reach this server at: PUBLIC_BASE_URL's, else the request's (its Host, or a trusted proxy's X-Forwarded-Host). */
function publicOrigin(config: Config, request: FastifyRequest): string {
  return config.publicBaseUrl ? new URL(config.publicBaseUrl).origin : `${request.protocol}://${request.host}`;
}

/** A refusal of what a tool call asked, as opposed to who asked (401, 403) or the server failing (5xx): the call's failed result. */
const isToolOutcome = (error: AppError) => error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * MCP at /mcp: agents call the API's operations as tools, over Streamable HTTP, statelessly (any
 * instance answers any message: no session, no stream to resume), under the credentials,
 * scopes, limits and records of the other faces. Each tool is an operation (tool-catalogue.ts)
 * run through the one GraphQL pipeline; the protocol around it (one JSON-RPC message per POST,
 * answered as JSON) is read here, its era told apart by the official SDK's classifier.
 */
export interface McpFace {
  /** Builds the tools again from the manifest as it is now (a reload), and tells every listener the list changed. */
  reload(): void;
}

export async function mountMcp(app: FastifyInstance, { runner, config, db, metrics, serverInfo, live }: MountMcpOptions): Promise<McpFace> {
  app.decorateRequest('mcp', null);
  /**
   * The tools and what follows from them, built at start and again when the manifest is reloaded
   * (watch-manifest.ts): a message is answered from the catalogue in effect when it arrived.
   */
  const build = () => {
    const built = toolCatalogue({
      schema: runner.schema,
      documents: config.trustedDocuments,
      scopesOf: (document, operationName) => runner.scopesOf(document, operationName),
      warn: (message, detail) => app.log.warn(detail, message),
    });
    const tools = new Map(built.tools);
    const events = built.events;
    const templates = JSON.stringify({ resourceTemplates: [...events.values()].map((source) => source.template) });
    if (config.mcpExecuteTools) {
      for (const tool of graphqlTools()) {
        if (tools.has(tool.listing.name))
          app.log.warn({ tool: tool.listing.name }, 'MCP: a manifest operation has the name of a built-in tool; the operation keeps it');
        else tools.set(tool.listing.name, tool);
      }
    }
    // What an agent may be granted here: the scopes its tools need, in the catalogue's order (never petstore:keys: no tool mints keys).
    const toolScopes = SCOPES.filter((scope) => [...tools.values()].some((tool) => tool.scopes.has(scope)));
    /**
     * tools/list shows a caller what it may call: the tools whose scopes its credential grants (a
     * read-only key sees no writes to fail on). A call to another is refused as before (403, with
     * the step-up challenge). The listing is one of at most 2^scopes, each built once; in
     * 2026-07-28 it says it is the caller's own (`cacheScope: private`).
     */
    const listings: ({ legacy: string; modern: string } | undefined)[] = [];
    const listingFor = (principal: Principal): { legacy: string; modern: string } => {
      // Bit i: the credential grants toolScopes[i].
      let mask = 0;
      for (let i = 0; i < toolScopes.length; i++) if (permits(principal, toolScopes[i] as Scope)) mask |= 1 << i;
      let built = listings[mask];
      if (!built) {
        const granted = [...tools.values()].filter((tool) => [...tool.scopes].every((scope) => permits(principal, scope)));
        const legacy = JSON.stringify({ tools: granted.map((tool) => tool.listing) });
        built = { legacy, modern: `${legacy.slice(0, -1)},"ttlMs":${TOOLS_TTL_MS},"cacheScope":"private"}` };
        listings[mask] = built;
      }
      return built;
    };
    /**
     * The scope a refused message's 401 challenge names, when it is not a tool call's own: what the
     * tools listed need, and no more. An SDK client registers with its issuer for the scope of the
     * first challenge it meets, and an issuer may then refuse a step-up beyond it (oidc-provider
     * does): a session's first token must cover the tools it lists. Without a scope named, SDK
     * clients asked for every scope the metadata lists (2.x), or for none (1.x).
     */
    return { tools, events, templates, toolScopes, sessionScope: toolScopes.join(' '), listingFor };
  };
  let catalogue = build();
  const scopeToAskFor = (message: McpMessage | null): string => {
    const name = message?.kind === 'request' && message.method === 'tools/call' ? message.params.name : undefined;
    const tool = typeof name === 'string' ? catalogue.tools.get(name) : undefined;
    return tool && tool.scopes.size > 0 ? [...tool.scopes].join(' ') : catalogue.sessionScope;
  };
  // A 2025 client has no way to hear of a change on this stateless server (its GET stream is 405);
  // a 2026-07-28 one listens with subscriptions/listen.
  const resourcesCapability = { subscribe: false, listChanged: false };
  const capabilities = { tools: { listChanged: false }, resources: resourcesCapability };
  // A 2026-07-28 client listens to the API's subscriptions as resource subscriptions (resources/templates/list names them).
  const modernCapabilities = { tools: { listChanged: true }, resources: { ...resourcesCapability, subscribe: true } };
  const resources = agentResources(runner.sdl, () => (app as { swagger?: () => unknown }).swagger?.() ?? null);
  const resourceList = JSON.stringify({ resources: resources.map(({ read: _read, open: _open, ...listed }) => listed) });

  const metadataUrl = (request: FastifyRequest) => `${publicOrigin(config, request)}${MCP_RESOURCE_METADATA}`;
  const sendRefusal = (reply: FastifyReply, error: AppError): FastifyReply => {
    const request = reply.request;
    const exchange = exchangeOf(request);
    exchange.framed = true;
    exchange.failure = error.code;
    const { message } = exchange;
    // A tool call refused for what it asked (a spent budget, an idempotency key reused or of the
    // wrong form) is a failed tool result, which the agent's model reads, as it reads a tool's own
    // errors; an SDK throws on an HTTP refusal instead. Who may call (401, 403: the authorization
    // spec's challenges) and the server's own failures (5xx) stay HTTP refusals.
    if (exchange.tool && message?.kind === 'request' && isToolOutcome(error)) {
      replyWithError(reply, error).code(200).header('Cache-Control', NO_STORE);
      return reply.send(resultAnswer(message.id, message.era, failed([toErrorBody(error)]).json, serverInfo));
    }
    replyWithError(reply, error)
      .code(statusOf(error, exchange.message?.era ?? null))
      .header('Cache-Control', NO_STORE);
    // RFC 9728 §5.1: the challenge names where to learn how to get a token for this resource;
    // a 401's also the scope to ask for (RFC 6750 §3), as a 403's names the scope missing.
    const challenge = reply.getHeader('www-authenticate');
    if (typeof challenge === 'string') {
      const scope = error.code === 'UNAUTHORIZED' && catalogue.sessionScope !== '' ? `, scope="${scopeToAskFor(message)}"` : '';
      reply.header('WWW-Authenticate', `${challenge}${scope}, resource_metadata="${metadataUrl(request)}"`);
    }
    const id = message?.kind === 'request' ? message.id : requestIdOf(request.body);
    return reply.send(errorAnswer(id, error));
  };

  const idempotent = idempotencyHooks(db, {
    applies: (request) => exchangeOf(request).tool?.mutation === true,
    keyOf: (request) => {
      const message = exchangeOf(request).message;
      const meta = message?.kind === 'request' ? message.params._meta : undefined;
      const key = isObject(meta) ? meta[IDEMPOTENCY_META_KEY] : undefined;
      // A key that is not a string is refused: its JSON would be a key of the right form, and collide with that string.
      if (key !== undefined) return typeof key === 'string' ? key : AppError.of('VALIDATION_FAILED', 'mcpIdempotencyKeyNotString');
      return request.headers['idempotency-key'];
    },
    fingerprintOf: (request) => {
      const { message, tool } = exchangeOf(request);
      const args = message?.kind === 'request' ? message.params.arguments : undefined;
      return requestFingerprint(`MCP tools/call ${tool?.listing.name ?? ''}`, args ?? {});
    },
    // The call's outcome is known where it ran (answer below): its answer is not parsed back.
    succeeded: (_payload, request) => exchangeOf(request).failure === undefined,
  });

  /**
   * What an agent's own document needs (execute_graphql), read before it runs so a call short of
   * it gets the step-up challenge, as a listed tool's does; parsed once, by the pipeline that runs
   * it. The fields still check their scopes as they run.
   */
  const scopesOfDocument = (query: unknown, operationName: unknown): ReadonlySet<Scope> =>
    typeof query === 'string'
      ? runner.scopesOfCall({ query, variables: {}, ...(typeof operationName === 'string' ? { operationName } : {}) })
      : NO_SCOPES;

  /** Reads the message, then who may send it: any method needs a credential, a tool the scopes its operation needs. */
  function admit(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    const exchange = exchangeOf(request);
    let message: McpMessage;
    try {
      message = readMessage(request);
    } catch (error) {
      return done(error as Error);
    }
    exchange.message = message;
    // The edge counted this request before its body was read (refusedOnceRead): its refusal is answered here, to the message's id.
    const { principal, edgeRefusal } = request;
    if (!principal) return done(edgeRefusal ?? request.authRefusal ?? unauthorized(request.headers.authorization));
    if (message.kind !== 'request' || message.method !== 'tools/call') return done(edgeRefusal ?? undefined);
    const { name, arguments: args } = message.params;
    if (typeof name !== 'string' || (args !== undefined && !isObject(args))) return done(AppError.of('VALIDATION_FAILED', 'mcpToolParams'));
    const tool = catalogue.tools.get(name);
    if (!tool) return done(AppError.of('TOOL_NOT_FOUND', 'mcpByName', { name: name.slice(0, 100) }));
    exchange.tool = tool;
    request.operation = `tools/call ${tool.listing.name}`;
    if (edgeRefusal) return done(edgeRefusal);
    const needed = tool.kind === 'execute' ? scopesOfDocument(args?.query, args?.operationName) : tool.scopes;
    const missing = [...needed].filter((scope) => !permits(principal, scope));
    // The challenge names every scope the tool needs, so a client steps up once.
    if (missing.length > 0) return done(AppError.of('INSUFFICIENT_SCOPE', 'missing', { scope: [...needed].join(' ') }));
    done();
  }

  async function answer(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const exchange = exchangeOf(request);
    const message = exchange.message;
    if (!message || message.kind === 'notice') {
      exchange.framed = true;
      return reply.code(202).send();
    }
    const { era, method } = message;
    request.operation ??= method;
    reply.type('application/json; charset=utf-8').header('Cache-Control', NO_STORE);
    if (method === 'tools/call' && exchange.tool) {
      const tool = exchange.tool;
      const args = (message.params.arguments ?? {}) as Record<string, unknown>;
      const { json, failures } = await callTool(runner, tool, args, request, reply);
      for (const code of failures) metrics.error('mcp', code);
      exchange.failure = failures[0];
      const span = request.serverSpan;
      span?.updateName(`tools/call ${tool.listing.name}`);
      span?.setAttributes({ 'mcp.method.name': method, 'gen_ai.tool.name': tool.listing.name, 'gen_ai.operation.name': 'execute_tool' });
      return json;
    }
    if (method === 'tools/list') {
      // admit() let no message through without a principal.
      const listing = catalogue.listingFor(request.principal as Principal);
      return era === 'modern' ? listing.modern : listing.legacy;
    }
    if (method === 'initialize' && era === 'legacy') {
      const asked = message.params.protocolVersion;
      const protocolVersion = (LEGACY_VERSIONS as readonly unknown[]).includes(asked) ? asked : LEGACY_VERSIONS[0];
      return JSON.stringify({ protocolVersion, capabilities, serverInfo, instructions: INSTRUCTIONS });
    }
    if (method === 'server/discover' && era === 'modern') {
      return JSON.stringify({
        supportedVersions: [...MODERN_VERSIONS],
        capabilities: modernCapabilities,
        instructions: INSTRUCTIONS,
        ttlMs: TOOLS_TTL_MS,
        cacheScope: 'public',
      });
    }
    // 2026-07-28 says how long each holds and whom for: the list is everyone's; a document as its HTTP route shares it.
    if (method === 'resources/list')
      return era === 'modern' ? `${resourceList.slice(0, -1)},"ttlMs":${TOOLS_TTL_MS},"cacheScope":"public"}` : resourceList;
    if (method === 'resources/templates/list')
      return era === 'modern' ? `${catalogue.templates.slice(0, -1)},"ttlMs":${TOOLS_TTL_MS},"cacheScope":"public"}` : catalogue.templates;
    if (method === 'resources/read' && typeof message.params.uri === 'string' && message.params.uri.startsWith(EVENTS_URI)) {
      // An event source read says what listening to it gives: its events' shape, and the request that listens.
      const { uri } = message.params;
      const { source } = eventSourceOf(uri);
      const text = JSON.stringify({
        description: source.template.description,
        listen: { method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: [uri] } } },
        eventSchema: source.eventSchema,
      });
      const contents = { contents: [{ uri, mimeType: 'application/json', text }] };
      return JSON.stringify(era === 'modern' ? { ...contents, ttlMs: TOOLS_TTL_MS, cacheScope: 'public' } : contents);
    }
    if (method === 'resources/read') {
      const uri = message.params.uri;
      const resource = resources.find((listed) => listed.uri === uri);
      if (!resource) throw AppError.of('RESOURCE_NOT_FOUND', 'mcpByUri', { uri: String(uri).slice(0, 200) });
      const contents = { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.read() }] };
      return JSON.stringify(
        era === 'modern'
          ? { ...contents, ttlMs: TOOLS_TTL_MS, cacheScope: resource.open(config.graphqlIntrospection) ? 'public' : 'private' }
          : contents,
      );
    }
    if (method === 'subscriptions/listen' && era === 'modern') return await listen(request, reply, message);
    if (method === 'ping' && era === 'legacy') return '{}';
    throw AppError.of('METHOD_NOT_FOUND', 'mcpByName', { method: method.slice(0, 100) });
  }

  /** The open subscriptions/listen streams of this instance that asked to hear of tool-list changes. */
  const listeners = new Set<EventStream<Outbound>>();

  /**
   * subscriptions/listen (2026-07-28): the answer is a stream of Server-Sent Events carrying the
   * notifications the client asked for that this server sends: `notifications/tools/list_changed`
   * when a reload changes the tools (resources do not change). It opens with the acknowledgement
   * of what is honoured, keeps alive with a comment every KEEP_ALIVE_MS, and counts against the
   * credential's cap of subscriptions (SUBSCRIPTIONS_PER_KEY). A credential that stops working
   * ends it with a JSON-RPC error saying why; the server going away ends it with the empty result
   * (the spec's graceful close), so the client listens again elsewhere. Each instance tells of its
   * own reloads: a fleet reloads every instance (SIGHUP to each).
   */
  async function listen(request: FastifyRequest, reply: FastifyReply, message: McpMessage & { kind: 'request' }): Promise<FastifyReply> {
    const requested = message.params.notifications;
    if (!isObject(requested)) throw AppError.of('VALIDATION_FAILED', 'mcpListenParams');
    const uris = requested.resourceSubscriptions ?? [];
    if (!Array.isArray(uris) || uris.length > MAX_EVENT_SOURCES || uris.some((uri) => typeof uri !== 'string'))
      throw AppError.of('VALIDATION_FAILED', 'mcpListenParams');
    const principal = request.principal as Principal;
    // Every URI is known, its variables good and its scopes held, before anything starts.
    const wanted = (uris as string[]).map((uri) => ({ uri, ...eventSourceOf(uri) }));
    for (const { source } of wanted) {
      if ([...source.scopes].some((scope) => !permits(principal, scope)))
        throw AppError.of('INSUFFICIENT_SCOPE', 'missing', { scope: [...source.scopes].join(' ') });
    }
    // Each subscription starts as GraphQL's do (its checks, the per-key cap); one refused refuses the listen, before its answer begins.
    const started: { uri: string; results: AsyncIterator<ExecutionResult> }[] = [];
    let stream: EventStream<Outbound>;
    const stopAll = () => {
      for (const { results } of started) void results.return?.();
    };
    try {
      for (const { uri, source, variables } of wanted) {
        const results = await runner.subscribe(request, {
          ...(source.documentId === null ? { query: source.text } : { documentId: source.documentId }),
          operationName: source.operationName,
          variables,
        });
        if (!(Symbol.asyncIterator in results)) throw appErrorOf(results);
        started.push({ uri, results: results[Symbol.asyncIterator]() });
      }
      // Hearing of tool-list changes holds a place of its own under the cap; resource subscriptions hold theirs as they run.
      stream =
        requested.toolsListChanged === true || started.length === 0
          ? live.openStream<Outbound>(principal, () => listeners.delete(stream))
          : new EventStream<Outbound>(() => undefined);
    } catch (error) {
      stopAll();
      throw error;
    }
    const honored = {
      ...(requested.toolsListChanged === true ? { toolsListChanged: true } : {}),
      ...(started.length > 0 ? { resourceSubscriptions: started.map(({ uri }) => uri) } : {}),
    };
    const meta = { 'io.modelcontextprotocol/subscriptionId': message.id };
    const out = new PassThrough();
    const send = (payload: string) => out.write(`event: message\ndata: ${payload}\n\n`);
    const notify = (method: string, params: object = {}) =>
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          method,
          params: { ...params, _meta: { ...meta, ...('_meta' in params ? (params._meta as object) : {}) } },
        }),
      );
    notify('notifications/subscriptions/acknowledged', { notifications: honored });
    // Its operation's duration is the time to acknowledge it: a stream lasts as long as its client
    // listens, which says nothing of latency (HTTP's request metrics leave streams out for that).
    if (metrics.enabled) {
      metrics.mcpOperation('subscriptions/listen', undefined, undefined, reply.elapsedTime / 1000);
      exchangeOf(request).observed = true;
    }
    if (honored.toolsListChanged) listeners.add(stream);
    // Each subscription's events become resources/updated for its URI, its data in `_meta`; an error ends the listen saying why.
    let running = started.length;
    for (const { uri, results } of started) {
      void (async () => {
        for (let next = await results.next(); !next.done; next = await results.next()) {
          if (next.value.errors?.length) return stream.stop(appErrorOf(next.value));
          stream.push({ method: 'notifications/resources/updated', params: { uri, _meta: { [EVENT_META_KEY]: next.value.data } } });
        }
        // Ended (a message reached its final status): the listen goes on while anything else is listened to.
        if (--running === 0 && !honored.toolsListChanged) stream.end();
      })().catch((error: unknown) => stream.stop(error instanceof AppError ? error : AppError.of('INTERNAL_ERROR', 'default')));
    }
    if (!honored.toolsListChanged && started.length === 0) stream.end();
    const keepAlive = setInterval(() => out.write(': keepalive\n\n'), KEEP_ALIVE_MS).unref();
    // The client went away: nothing more is written, and its places under the cap are given back.
    // Fastify completes a request only once its answer finished: a stream closed early gets its access line and its count here.
    lineWhenClosedEarly(reply);
    reply.raw.once('close', () => {
      stopAll();
      void stream.return();
    });
    void (async () => {
      for await (const event of stream) {
        if (event instanceof AppError) {
          exchangeOf(request).failure = event.code;
          send(errorAnswer(message.id, event));
        } else notify(event.method, event.params);
      }
      stopAll();
      clearInterval(keepAlive);
      if (!reply.raw.destroyed && exchangeOf(request).failure === undefined)
        send(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { resultType: 'complete', _meta: { ...meta, 'io.modelcontextprotocol/serverInfo': serverInfo } },
          }),
        );
      out.end();
    })();
    exchangeOf(request).framed = true;
    return reply
      .code(200)
      .header('Content-Type', 'text/event-stream')
      .header('Cache-Control', 'no-cache, no-transform')
      .header('X-Accel-Buffering', 'no')
      .send(out);
  }

  /** The event source a URI names (`petstore://subscriptions/<name>?<variables>`), its variables typed as its schema states and checked. */
  function eventSourceOf(uri: string): { source: EventSource; variables: Record<string, unknown> } {
    const missing = () => AppError.of('RESOURCE_NOT_FOUND', 'mcpByUri', { uri: uri.slice(0, 200) });
    if (!uri.startsWith(EVENTS_URI) || uri.length > 2000) throw missing();
    const url = new URL(uri);
    const source = catalogue.events.get(decodeURIComponent(url.pathname.slice(1)));
    if (!source) throw missing();
    const variables: Record<string, unknown> = {};
    for (const [name, value] of url.searchParams) {
      const type = source.variables.properties[name]?.type;
      const integer = type === 'integer' || (Array.isArray(type) && type.includes('integer') && !type.includes('string'));
      variables[name] = integer && /^-?[0-9]{1,16}$/.test(value) ? Number(value) : value;
    }
    return { source, variables: source.checkVariables(variables, (field) => (field === '' ? 'The URI' : `Variable '${field}'`)) };
  }

  /** The result as the JSON-RPC response to its request, after an idempotent call's result is kept (or replayed). */
  function frame(request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
    const { message, framed } = exchangeOf(request);
    if (framed || message?.kind !== 'request' || typeof payload !== 'string') return done(null, payload);
    done(null, resultAnswer(message.id, message.era, payload, serverInfo));
  }

  app.route({
    method: 'POST',
    url: MCP_ROUTE,
    // Before a byte is parsed: 413 past it; JSON deeper than the parser's bound is refused as it reads.
    bodyLimit: MAX_BODY_BYTES,
    schema: { hide: true },
    config: { refusedOnceRead: true },
    errorHandler: errorHandler(sendRefusal, 'mcp'),
    onRequest: (request, _reply, done) => {
      // DNS rebinding: a page on a name that resolves here sends its own Origin, never this server's.
      const origin = request.headers.origin;
      if (origin !== undefined && !originAllowed(origin, request.host, config.corsOrigins, config.publicBaseUrl)) {
        return done(AppError.of('FORBIDDEN', 'mcpOrigin', { origin: origin.slice(0, 100) }));
      }
      const accept = request.headers.accept;
      if (accept !== undefined && !/application\/json|application\/\*|\*\/\*/.test(accept)) {
        return done(AppError.of('NOT_ACCEPTABLE', 'mcpJson'));
      }
      done();
    },
    preHandler: [admit, idempotent.preHandler],
    onSend: [idempotent.onSend, frame],
    // Only while metrics are on: a hook costs its call on every request even when it records nothing.
    ...(metrics.enabled
      ? {
          onResponse: (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
            const { message, tool, failure, observed } = exchangeOf(request);
            if (message?.kind === 'request' && !observed)
              metrics.mcpOperation(message.method, tool?.listing.name, failure, reply.elapsedTime / 1000);
            done();
          },
        }
      : {}),
    handler: answer,
  });
  // 2025 clients open a GET stream for server messages and DELETE their session: stateless, there is neither.
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_ROUTE,
    exposeHeadRoute: false,
    schema: { hide: true },
    errorHandler: errorHandler(sendRefusal, 'mcp'),
    handler: async (_request, reply) => {
      reply.header('Allow', 'POST');
      throw AppError.of('METHOD_NOT_ALLOWED', 'mcpPostOnly');
    },
  });
  // RFC 9728 for this endpoint: what a client's 401 points at. With OpenID Connect, its issuers;
  // the resource is the audience tokens must name (RFC 8707), which clients accept when it is
  // this server's origin or a prefix of the endpoint's URL.
  // Without PUBLIC_BASE_URL or an audience, the resource is the request's own origin, from the
  // client's Host: told to that client alone, so no shared cache keeps one client's Host for others.
  const pinned = config.oidc !== null || config.publicBaseUrl !== null;
  app.get(MCP_RESOURCE_METADATA, { schema: { hide: true } }, async (request, reply) =>
    reply.header('Cache-Control', pinned ? 'public, max-age=300' : NO_STORE).send({
      resource: config.oidc?.audience ?? `${publicOrigin(config, request)}${MCP_ROUTE}`,
      ...(config.oidc ? { authorization_servers: config.oidc.issuers } : {}),
      scopes_supported: catalogue.toolScopes,
      bearer_methods_supported: ['header'],
      resource_name: `${serverInfo.title} (MCP)`,
    }),
  );
  return {
    reload() {
      catalogue = build();
      app.log.info(
        { tools: [...catalogue.tools.keys()], listeners: listeners.size },
        'MCP: the tools were built again from the reloaded manifest',
      );
      for (const listener of listeners) listener.push({ method: 'notifications/tools/list_changed', params: {} });
    },
  };
}
