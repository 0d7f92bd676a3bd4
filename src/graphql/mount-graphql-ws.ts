import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ExecutionArgs, GraphQLError } from 'graphql';
import { performance } from 'node:perf_hooks';
import { CloseCode } from 'graphql-ws';
import type { Context, ServerOptions } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { AppError } from '../errors/index.ts';
import { unauthorized } from '../http/auth/bearer-token.ts';
import { authenticate } from '../http/auth/credentials.ts';
import type { Exchange } from '../http/exchange.ts';
import { accessLine } from '../http/logging/access-log.ts';
import type { Credentials } from '../http/auth/credentials.ts';
import type { Principal } from '../services/api-keys/index.ts';
import type { LiveFeed } from '../services/live/live-feed.ts';
import type { SocketHold } from '../services/live/key-streams.ts';
import { fromAppError } from './coded-error.ts';
import type { RequestParams } from './http/graphql-params.ts';
import type { Events, Streaming } from './http/run-graphql.ts';
import { GRAPHQL_ROUTE } from '../http/route-config.ts';
import { documentIdOf } from './trusted-document-id.ts';
import { GRAPHQL_LIMITS } from './graphql-limits.ts';
import type { MaybePromise } from '../http/maybe-promise.ts';

/** The subscription's beginning, carried from onSubscribe to graphql-ws's subscribe in the root value. */
type Subscriber = { begin: () => Promise<Events> };

/** The largest message a client may send: what a GraphQL body over HTTP may be. */
const MAX_MESSAGE_BYTES = GRAPHQL_LIMITS.maxBodyBytes;

/** The budgets a socket is charged to, as an HTTP request is (each throws RATE_LIMITED when spent). */
export interface SocketLimits {
  /** A subscribe, to its credential's request budget. */
  keyed: (bucket: string) => MaybePromise<void>;
  /** A connection_init without a valid credential, to its client's address. */
  keyless: (address: string) => MaybePromise<void>;
  /** An account made for a token's new subject, as a sign-up from the address. */
  newAccount: (address: string) => Promise<void>;
  /** The client's address of an upgrade request (TRUST_PROXY honoured). */
  addressOf: (request: IncomingMessage) => string;
  /** How long a socket may stay open without a subscription; then it is closed (1000), and a client reconnects when it next subscribes. */
  idleMs: number;
}

export interface GraphQLWsOptions {
  credentials: Credentials;
  /** The operation pipeline every GraphQL request runs through (http/run-graphql.ts), from a subscribe's exchange and parameters. */
  stream: (exchange: Exchange, params: RequestParams) => Streaming;
  limits: SocketLimits;
  /** Where a socket is held within its credential's cap, and closed when the credential stops working. */
  holdSocket: LiveFeed['holdSocket'];
}

interface Connection extends Record<PropertyKey, unknown> {
  principal?: Principal;
  token?: string;
  /** The socket's place in its credential's cap. */
  hold?: SocketHold;
  /** The connection's charge covers its first subscribe, as one HTTP request carries one operation. */
  prepaid?: boolean;
  /** When the socket last began or ended a subscription (performance.now()), and the timer that closes it when idle. */
  lastActive?: number;
  idle?: NodeJS.Timeout;
  /** Why the socket closes once its subscriptions have sent their last events (its credential stopped working). */
  ending?: AppError;
}

type SocketContext = Context<Record<string, unknown>, Connection & { socket: WebSocket; request: IncomingMessage }>;
type SubscribePayload = Parameters<NonNullable<ServerOptions<Record<string, unknown>, Connection>['onSubscribe']>>[2];
/** What a subscribe came to: the arguments to run it with or its errors, and the principal it was checked for. */
interface Subscribed {
  result: ExecutionArgs | GraphQLError[];
  principal: Principal | null;
}

/** A subscribe message that names a trusted document and no query, given an empty one. */
function withQueryForTrustedId(message: unknown): unknown {
  if (!isRecord(message) || message.type !== 'subscribe' || !isRecord(message.payload)) return message;
  const { payload } = message;
  if (typeof payload.query === 'string' || documentIdOf(payload) === null) return message;
  return { ...message, payload: { ...payload, query: '' } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An error as a socket's client sees it: its message and `extensions` { code, status }, as every
 * coded error serialises (what an HTTP answer would take from it is not enumerable).
 */
function forSocket(error: GraphQLError | AppError): GraphQLError {
  return error instanceof AppError ? fromAppError(error) : error;
}

/**
 * A subscribe's payload as the parameters of a request: graphql-ws allows null where GraphQL over
 * HTTP leaves a member out, and passes members of its own through (a trusted document's `documentId`).
 */
function paramsOf(payload: SubscribePayload): RequestParams {
  const { operationName, variables, extensions } = payload;
  return { ...payload, operationName: operationName ?? undefined, variables: variables ?? undefined, extensions: extensions ?? undefined };
}

/** The key a connection sends: `connectionParams.Authorization` (browsers cannot set headers on a WebSocket), or the upgrade's header. */
function authorizationOf(params: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage): string | undefined {
  const value = params?.Authorization ?? params?.authorization ?? request.headers.authorization;
  return typeof value === 'string' ? value : undefined;
}

/** A socket's subscribe as the exchange the pipeline runs: its own id and log lines, the credential checked, no idempotency, no span. */
function subscribeExchange(app: FastifyInstance, principal: Principal, authorization: string, ip: string): Exchange {
  const id = randomUUID();
  return {
    id,
    method: 'SUBSCRIBE',
    ip,
    headers: { authorization },
    log: app.log.child({ requestId: id, transport: 'graphql-ws' }),
    principal,
    authRefusal: null,
    idempotency: null,
    access: null,
    reads: null,
    serverSpan: null,
  };
}

/**
 * Subscriptions over WebSocket, as graphql-ws speaks them (`graphql-transport-ws`), on the same
 * path as GraphQL over HTTP. The key comes with `connection_init` and is checked there and again
 * at each subscribe (a revoked key closes the socket); the socket is charged to it as a request
 * is, held within its cap of sockets, and closed after SUBSCRIPTION_SOCKET_IDLE_MS without a
 * subscription; every operation runs through the route's
 * own pipeline (run-graphql.ts: trusted documents, limits, validation, the checks, the context,
 * masking, the metric and spans), not a transport's plugins, and a key that stops being valid
 * ends its streams as over SSE. Queries and mutations go over HTTP, where rate limits
 * and idempotency live. When the listener closes (shutdown), sockets close with 1001 and clients
 * reconnect elsewhere.
 */
export function mountGraphQLWs(app: FastifyInstance, { credentials, stream, limits, holdSocket }: GraphQLWsOptions): void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  async function principalOf(authorization: string | undefined, address: string): Promise<Principal | AppError> {
    return (await authenticate(credentials, authorization, () => limits.newAccount(address))) ?? unauthorized(authorization);
  }

  const closeWith = (socket: { close(code: number, reason: string): void }, error: AppError) =>
    // A close reason is at most 123 bytes. A spent budget or a full cap is graphql-ws's 4429
    // (clients do not retry it at once), a refusal 4403.
    socket.close(
      error.status === 429 ? CloseCode.TooManyInitialisationRequests : CloseCode.Forbidden,
      Buffer.from(error.message).subarray(0, 123).toString(),
    );

  /**
   * An acknowledged socket is charged to its credential as an HTTP request is (the charge covers
   * its first subscribe) and held within the credential's cap of sockets, so one key can never
   * spend the instance's connections; the refusal, or null.
   */
  async function admitSocket(ctx: SocketContext, principal: Principal): Promise<AppError | null> {
    try {
      await limits.keyed(principal.bucket);
      ctx.extra.hold = holdSocket(principal, (why) => {
        // The credential stopped working: its streams end with a last event saying why (key-streams.ts), then the socket closes.
        ctx.extra.ending = why;
        if (Object.keys(ctx.subscriptions).length === 0) closeWith(ctx.extra.socket, why);
      });
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    // Closed while it was being admitted: onClose ran before the hold existed, so it goes back here.
    if (ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) ctx.extra.hold.release();
    ctx.extra.prepaid = true;
    return null;
  }

  /** Closes the socket once it has carried no subscription for `idleMs`: ping and pong alone do not keep it. */
  function watchIdle(ctx: SocketContext): void {
    // One timer per socket, re-armed rarely: while a subscription runs, once per idleMs; once the
    // last ended (onComplete marks when), for what is left of idleMs since.
    const check = () => {
      const subscribed = Object.keys(ctx.subscriptions).length > 0;
      const left = subscribed ? limits.idleMs : (ctx.extra.lastActive ?? 0) + limits.idleMs - performance.now();
      if (left > 0) ctx.extra.idle = setTimeout(check, left).unref();
      else ctx.extra.socket.close(1000, `No subscription for ${Math.round(limits.idleMs / 1000)} s; connect again to subscribe.`);
    };
    ctx.extra.lastActive = performance.now();
    ctx.extra.idle = setTimeout(check, limits.idleMs).unref();
  }

  /** A subscribe, checked as an HTTP request is (the key again, the budget, the document), with who sent it. */
  async function subscribing(ctx: SocketContext, payload: SubscribePayload): Promise<Subscribed> {
    // The key again: it may have been revoked since the socket opened.
    const found = await principalOf(ctx.extra.token, limits.addressOf(ctx.extra.request));
    if (found instanceof AppError) {
      closeWith(ctx.extra.socket, found);
      return { result: [forSocket(found)], principal: null };
    }
    // Each subscribe is an operation (its first read included), charged as an HTTP request is;
    // the socket's own charge paid for the first.
    try {
      if (ctx.extra.prepaid) ctx.extra.prepaid = false;
      else await limits.keyed(found.bucket);
    } catch (error) {
      if (error instanceof AppError) return { result: [forSocket(error)], principal: found };
      throw error;
    }
    const exchange = subscribeExchange(app, found, ctx.extra.token ?? '', limits.addressOf(ctx.extra.request));
    const operation = stream(exchange, paramsOf(payload));
    if ('refused' in operation) return { result: operation.refused.map(forSocket), principal: found };
    if (operation.kind !== 'subscription') {
      return { result: [forSocket(AppError.of('VALIDATION_FAILED', 'graphqlSocketSubscriptionsOnly'))], principal: found };
    }
    // graphql-ws hands these to subscribe below, which begins the operation the pipeline prepared.
    const args: ExecutionArgs = { ...operation.args, rootValue: { begin: operation.begin } satisfies Subscriber };
    return { result: args, principal: found };
  }

  /** One access line per subscribe, as every HTTP request has: who, what came of it, how long the checks took. */
  function logSubscribe(ctx: SocketContext, id: string, { result, principal }: Subscribed, ms: number): void {
    const refused = Array.isArray(result) ? result[0] : undefined;
    const status = refused ? Number(refused.extensions?.status ?? 400) : 200;
    const who = { ip: limits.addressOf(ctx.extra.request), principal, serverSpan: null };
    app.log.info(
      { ...accessLine(who, 'SUBSCRIBE', GRAPHQL_ROUTE, status, ms, null), transport: 'graphql-ws', subscription: id },
      'request',
    );
  }

  useServer<Record<string, unknown>, Connection>(
    {
      // graphql-ws refuses (4400) a subscribe without a query string, but a trusted document is
      // sent by its id alone, as over HTTP: such a subscribe gets an empty query, which the id
      // replaces (documentText).
      jsonMessageReviver: (key, value: unknown) => (key === '' ? withQueryForTrustedId(value) : value),
      async onConnect(ctx) {
        const authorization = authorizationOf(ctx.connectionParams, ctx.extra.request);
        const address = limits.addressOf(ctx.extra.request);
        const found = await principalOf(authorization, address);
        if (found instanceof AppError) {
          // Charged to the address as an HTTP request refused for its key is: guessing keys over sockets is as slow.
          let spent: AppError | null = null;
          try {
            await limits.keyless(address);
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            spent = error;
          }
          closeWith(ctx.extra.socket, spent ?? found);
          return false;
        }
        const refused = await admitSocket(ctx, found);
        if (refused) {
          closeWith(ctx.extra.socket, refused);
          return false;
        }
        ctx.extra.principal = found;
        ctx.extra.token = authorization;
        watchIdle(ctx);
        return true;
      },
      onComplete(ctx, id) {
        ctx.extra.lastActive = performance.now();
        // The last subscription of a socket that is ending: closed once its complete has gone out.
        const { ending } = ctx.extra;
        if (ending && Object.keys(ctx.subscriptions).every((open) => open === id)) setImmediate(() => closeWith(ctx.extra.socket, ending));
      },
      onClose(ctx) {
        ctx.extra.hold?.release();
        clearTimeout(ctx.extra.idle);
      },
      async onSubscribe(ctx, id, payload) {
        const began = performance.now();
        ctx.extra.lastActive = began;
        const outcome = await subscribing(ctx, payload);
        logSubscribe(ctx, id, outcome, performance.now() - began);
        return outcome.result;
      },
      // The pipeline's events, their errors masked and coded already.
      subscribe: (args) => (args.rootValue as Subscriber).begin(),
    },
    sockets,
  );

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((request.url ?? '').split('?')[0] !== GRAPHQL_ROUTE) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  });
  const closeAll = () => {
    for (const client of sockets.clients) client.close(1001, 'The server is shutting down; reconnect to reach another instance.');
  };
  app.onListenerClosed(closeAll);
  // Before Fastify closes the HTTP server, which waits for every connection, upgraded ones included.
  app.addHook('preClose', (done) => {
    closeAll();
    done();
  });
  app.addHook('onClose', (_instance, done) => sockets.close(() => done()));
}
