import { baseUrl, flag, httpUrl, integer, oneOf, origins, redisConfig, trustProxy } from './env-values.ts';
import type { Env } from './env-values.ts';
import { oidcConfig } from './oidc-config.ts';
import type { OidcConfig } from './oidc-config.ts';
import { trustedDocuments } from './trusted-documents.ts';

/** Where the data lives when DATABASE_URL is not set: a SQLite file, folders created. */
export const DEFAULT_DATABASE_URL = './data/petstore.db';

/** The URL schemes DATABASE_URL may have: PostgreSQL's, and SQLite's (a file path has none). */
const DATABASE_SCHEMES = ['postgres', 'postgresql', 'sqlite', 'file'];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ResponseCacheConfig {
  enabled: boolean;
  /** How long an answer is kept: it is never served after a write, so this only bounds what old answers hold. */
  ttlMs: number;
  /** The most the store holds, in this process or in Redis for every instance together (least recently kept out first). */
  maxBytes: number;
  /** The most one account's answers may hold of it: one caller cannot push out everyone else's. */
  maxAccountBytes: number;
  /** Larger answers are not kept. */
  maxEntryBytes: number;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** Apply pending migrations at start (MIGRATE_ON_START, default true); false refuses to start while some are pending. */
  migrateOnStart: boolean;
  logLevel: LogLevel;
  /** Access lines of /healthz and /readyz at info (LOG_PROBES); default at debug. */
  logProbes: boolean;
  nodeEnv: string;
  /** Contract §4: both public base addresses end in `/v1`. Shown as OpenAPI `servers` when set. */
  productionBaseUrl: string | null;
  stagingBaseUrl: string | null;
  /** Where clients reach this instance (ending in `/v1`); when set, Link headers are absolute under it. */
  publicBaseUrl: string | null;
  /** GraphiQL at GET /graphql; default on, off in production. */
  graphiql: boolean;
  /** GraphQL introspection; default on, off in production. */
  graphqlIntrospection: boolean;
  /** Trusted documents by id (GRAPHQL_TRUSTED_DOCUMENTS); in production, the only operations that run. */
  /** The manifest's documents by id; one map for the server's life, its entries replaced in place by a reload (watch-manifest.ts). */
  trustedDocuments: Map<string, string> | null;
  /** Where the manifest is read from (GRAPHQL_TRUSTED_DOCUMENTS), for reloads. */
  trustedDocumentsPath: string | null;
  /** GraphQL queries and mutations compiled by graphql-jit (GRAPHQL_JIT); default on. */
  graphqlJit: boolean;
  /** The GraphQL schema as an Apollo Federation v2 subgraph (GRAPHQL_FEDERATION); default off. */
  graphqlFederation: boolean;
  /** The MCP endpoint at /mcp, for agents (MCP); default on. */
  mcp: boolean;
  /** MCP's `validate_graphql` and `execute_graphql` tools, which run any operation an agent writes; off by default, never where only trusted documents run. */
  mcpExecuteTools: boolean;
  /** GraphQL query answers kept per account, keyed by the data versions they were read under (docs/caching.md). */
  responseCache: ResponseCacheConfig;
  /** br/gzip for answers of at least this many bytes; 0 turns compression off. */
  compressMinBytes: number;
  /** SIGNUP=open: anyone may create an account and its first key at POST /signup. Default off (the route is absent). */
  signup: boolean;
  delivery: DeliveryConfig;
  /** Origins allowed to call from a browser; empty means CORS is off. */
  corsOrigins: string[];
  rateLimit: RateLimitConfig;
  limits: ServerLimits;
  /** Access tokens from OpenID Connect issuers, beside API keys; null: API keys only. */
  oidc: OidcConfig | null;
  /** Redis for budgets shared by every instance; null counts in this process only. */
  redis: { url: string; keyPrefix: string } | null;
  /** Which proxies' X-Forwarded-For to believe (Fastify's trustProxy): off, or their addresses/CIDRs. */
  trustProxy: false | string[];
  /** After SIGTERM, how long /readyz says 503 while requests are still served, before the listener closes. */
  shutdownDelayMs: number;
  subscriptions: SubscriptionConfig;
  metrics: MetricsConfig;
  tracing: TracingConfig;
}

/** Prometheus metrics on a listener of their own; off while METRICS_PORT is unset. */
export interface MetricsConfig {
  /** METRICS_PORT; null: no metrics at all, nothing recorded. */
  port: number | null;
  /** METRICS_HOST; default loopback: what the metrics tell is for the operator only. */
  host: string;
  /** Distinct GraphQL operation names kept as labels (METRICS_OPERATION_NAMES); the rest count as (other). */
  maxOperationNames: number;
  /** nodejs_gc_duration_seconds (METRICS_GC); off by default, for its cost (docs/observability.md). */
  gc: boolean;
}

/**
 * OpenTelemetry traces, from the standard OTEL_* variables (the SDK reads the rest itself: the
 * endpoint, headers, sampler, resource attributes). Off, and the SDK never loaded, unless an
 * OTLP endpoint is set or OTEL_TRACES_EXPORTER asks for an exporter.
 */
export interface TracingConfig {
  exporter: 'otlp' | 'console' | null;
  protocol: 'http/protobuf' | 'http/json';
  serviceName: string;
  /** OTEL_TRACES_SAMPLER, default parentbased_always_on: every request traced unless its caller said not to. */
  sampler: (typeof SAMPLERS)[number];
  /** OTEL_TRACES_SAMPLER_ARG for the ratio samplers: 0 to 1. */
  samplerRatio: number;
  /** OTEL_BSP_SCHEDULE_DELAY: the longest a finished span waits to be sent, in ms. */
  scheduleDelayMs: number;
}

export const SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;

/** GraphQL subscriptions (live updates over SSE). */
export interface SubscriptionConfig {
  /** How often the database is read for new events while anyone subscribes. */
  pollMs: number;
  /** Open subscriptions per key, per instance; and open WebSockets per key, per instance, counted apart. */
  perKey: number;
  /** How long a WebSocket may stay open without a subscription before it is closed. */
  socketIdleMs: number;
}

/** Where the data lives and how the server talks to it (src/db reads this; nothing else does). */
export interface DatabaseConfig {
  /** A SQLite file path (or `sqlite:`/`file:` URL, or `:memory:`), or a `postgres://` / `postgresql://` URL. */
  url: string;
  /** PostgreSQL: connections this process may hold. */
  poolSize: number;
  /** PostgreSQL: the longest one statement may run; then 503. */
  statementTimeoutMs: number;
  /** How long a write waits for a lock (PostgreSQL lock_timeout, SQLite busy_timeout); then 503. */
  lockTimeoutMs: number;
  /** PostgreSQL: the longest to wait for a connection, new or from a full pool; then 503. */
  connectTimeoutMs: number;
  /**
   * PostgreSQL: what DATABASE_URL reaches. `none`: PostgreSQL itself (timeouts as startup
   * parameters, named statements). `transaction`: a pooler in transaction mode (PgBouncer's
   * pool_mode = transaction): no session state, timeouts set in each transaction, no statement names.
   */
  pooler: 'none' | 'transaction';
  /** PostgreSQL behind a pooler: a direct URL to PostgreSQL itself for migrations and their lock (DATABASE_MIGRATION_URL); null: none. */
  migrationUrl: string | null;
  /** PostgreSQL: streaming replicas that answer reads (DATABASE_READ_URLS); empty: every read on DATABASE_URL. */
  readUrls: string[];
  /** How far behind the primary a replica may be and still answer reads (DATABASE_READ_MAX_LAG_MS). */
  readMaxLagMs: number;
}

export interface ServerLimits {
  /** The longest a whole request (headers and body) may take to arrive; then 408. */
  requestTimeoutMs: number;
  /** Open connections at once; more are closed as they arrive. */
  maxConnections: number;
}

export interface RateLimitConfig {
  /** Requests (GraphQL: operations) per key per minute; 0 turns rate limiting off. */
  perKey: number;
  /** Messages sent per key per minute, on top of perKey. */
  messagesPerKey: number;
  /** Requests without a valid key per client address per minute: throttles key guessing. */
  perAddressWithoutKey: number;
  /** Sign-ups per client address per minute (SIGNUP=open), accounts made for token subjects included; counted even when perKey is 0. */
  signupsPerAddress: number;
  /** New accounts per minute over all addresses (shared through Redis: the whole fleet), sign-ups and token subjects together. */
  newAccounts: number;
}

export interface DeliveryConfig {
  /** Run the message delivery worker in this process. */
  enabled: boolean;
  /** POST each message here; unset → the log transport. */
  webhookUrl: string | null;
  webhookTimeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  pollMs: number;
  leaseMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function deliveryConfig(problems: string[], env: Env): DeliveryConfig {
  const delivery: DeliveryConfig = {
    enabled: flag(problems, env, 'MESSAGE_DELIVERY', true),
    webhookUrl: httpUrl(problems, env, 'MESSAGE_WEBHOOK_URL'),
    webhookTimeoutMs: integer(problems, env, 'MESSAGE_WEBHOOK_TIMEOUT_MS', 5_000, 1, 60_000),
    maxAttempts: integer(problems, env, 'MESSAGE_MAX_ATTEMPTS', 5, 1, 100),
    retryBaseMs: integer(problems, env, 'MESSAGE_RETRY_BASE_MS', 1_000, 1, 3_600_000),
    pollMs: integer(problems, env, 'MESSAGE_POLL_MS', 200, 10, 60_000),
    leaseMs: integer(problems, env, 'MESSAGE_LEASE_MS', 30_000, 100, 3_600_000),
  };
  // A lease shorter than an attempt would let a second worker take a message still being sent.
  if (delivery.leaseMs <= delivery.webhookTimeoutMs) {
    problems.push(`MESSAGE_LEASE_MS (${delivery.leaseMs}) must be longer than MESSAGE_WEBHOOK_TIMEOUT_MS (${delivery.webhookTimeoutMs}).`);
  }
  return delivery;
}

function metricsConfig(problems: string[], env: Env, publicPort: number): MetricsConfig {
  const text = env.METRICS_PORT?.trim() ?? '';
  const port = text === '' ? null : integer(problems, env, 'METRICS_PORT', 0, 0, 65_535);
  if (port !== null && port !== 0 && port === publicPort)
    problems.push(`METRICS_PORT must differ from PORT (both ${port}): metrics never share the public port.`);
  return {
    port,
    host: env.METRICS_HOST?.trim() || '127.0.0.1',
    maxOperationNames: integer(problems, env, 'METRICS_OPERATION_NAMES', 100, 1, 10_000),
    gc: flag(problems, env, 'METRICS_GC', false),
  };
}

function tracingConfig(problems: string[], env: Env): TracingConfig {
  const endpoint = Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const named = env.OTEL_TRACES_EXPORTER
    ? oneOf(problems, env, 'OTEL_TRACES_EXPORTER', ['otlp', 'console', 'none'] as const, 'none')
    : null;
  const disabled = flag(problems, env, 'OTEL_SDK_DISABLED', false);
  const protocol = oneOf(
    problems,
    env,
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL',
    ['http/protobuf', 'http/json'] as const,
    'http/protobuf',
  );
  const exporter = disabled || named === 'none' ? null : named === 'console' ? 'console' : named === 'otlp' || endpoint ? 'otlp' : null;
  const ratioText = env.OTEL_TRACES_SAMPLER_ARG?.trim() || '1';
  const samplerRatio = Number(ratioText);
  if (!(samplerRatio >= 0 && samplerRatio <= 1))
    problems.push(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (got '${ratioText}').`);
  return {
    exporter,
    protocol,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'petstore-gateway',
    sampler: oneOf(problems, env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on'),
    samplerRatio,
    scheduleDelayMs: integer(problems, env, 'OTEL_BSP_SCHEDULE_DELAY', 5_000, 1, 600_000),
  };
}

/** Reads the environment once, reporting every problem together. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];

  const portText = env.PORT ?? '4000';
  const port = /^[0-9]{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) problems.push(`PORT must be an integer from 0 to 65535 (got '${portText}').`);

  const host = env.HOST ?? '0.0.0.0';
  if (host.trim() === '') problems.push('HOST must not be empty.');

  const database: DatabaseConfig = {
    url: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    poolSize: integer(problems, env, 'DATABASE_POOL_SIZE', 10, 2, 1_000),
    statementTimeoutMs: integer(problems, env, 'DATABASE_STATEMENT_TIMEOUT_MS', 5_000, 100, 600_000),
    lockTimeoutMs: integer(problems, env, 'DATABASE_LOCK_TIMEOUT_MS', 5_000, 100, 600_000),
    connectTimeoutMs: integer(problems, env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
    pooler: oneOf(problems, env, 'DATABASE_POOLER', ['none', 'transaction'] as const, 'none'),
    migrationUrl: env.DATABASE_MIGRATION_URL?.trim() || null,
    readUrls: (env.DATABASE_READ_URLS ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url !== ''),
    readMaxLagMs: integer(problems, env, 'DATABASE_READ_MAX_LAG_MS', 2_000, 100, 60_000),
  };
  // A scheme of two letters or more that is neither PostgreSQL's nor SQLite's is a mistake (a
  // typo, another engine's URL), never a file to create under that name; only the scheme is
  // repeated, since the rest may hold a password.
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(database.url)?.[1]?.toLowerCase();
  if (scheme !== undefined && !DATABASE_SCHEMES.includes(scheme)) {
    problems.push(
      `DATABASE_URL names a database this server does not speak (${scheme}:): give postgres://user:password@host:5432/database for PostgreSQL, or a SQLite file path (also sqlite:/file: URLs, or :memory:).`,
    );
  }
  for (const [name, url] of [
    ['DATABASE_URL', database.url],
    ['DATABASE_MIGRATION_URL', database.migrationUrl ?? ''],
  ] as const) {
    if (/^postgres(ql)?:/i.test(url) && !/^postgres(ql)?:\/\/[^/]/i.test(url)) {
      problems.push(`${name} must be postgres://[user[:password]@]host[:port]/database for PostgreSQL (got a URL without a host).`);
    }
  }
  const onPostgres = /^postgres(ql)?:\/\//i.test(database.url);
  if (database.migrationUrl !== null && !/^postgres(ql)?:\/\//i.test(database.migrationUrl)) {
    problems.push('DATABASE_MIGRATION_URL must be a postgres:// URL: PostgreSQL itself, where DATABASE_URL is a pooler.');
  }
  if (!onPostgres && (database.pooler !== 'none' || database.migrationUrl !== null)) {
    problems.push('DATABASE_POOLER and DATABASE_MIGRATION_URL are for PostgreSQL: DATABASE_URL names a SQLite file.');
  }
  if (database.readUrls.length > 0 && !onPostgres) {
    problems.push('DATABASE_READ_URLS is for PostgreSQL: DATABASE_URL names a SQLite file, which has no replicas.');
  }
  for (const [index, url] of database.readUrls.entries()) {
    if (!/^postgres(ql)?:\/\/[^/]/i.test(url)) {
      problems.push(
        `DATABASE_READ_URLS: entry ${index + 1} must be postgres://[user[:password]@]host[:port]/database (a streaming replica).`,
      );
    }
  }

  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${logLevel}').`);

  const nodeEnv = env.NODE_ENV || 'development';
  const cacheBytes = integer(problems, env, 'RESPONSE_CACHE_MAX_BYTES', 64 * 1024 * 1024, 65_536, 4 * 1024 ** 3);
  const config: Config = {
    port,
    host,
    database,
    migrateOnStart: flag(problems, env, 'MIGRATE_ON_START', true),
    logLevel,
    logProbes: flag(problems, env, 'LOG_PROBES', false),
    nodeEnv,
    productionBaseUrl: baseUrl(problems, env, 'PRODUCTION_BASE_URL', null),
    stagingBaseUrl: baseUrl(problems, env, 'STAGING_BASE_URL', null),
    publicBaseUrl: baseUrl(problems, env, 'PUBLIC_BASE_URL', null),
    graphiql: flag(problems, env, 'GRAPHIQL', nodeEnv !== 'production'),
    graphqlIntrospection: flag(problems, env, 'GRAPHQL_INTROSPECTION', nodeEnv !== 'production'),
    trustedDocuments: trustedDocuments(problems, env),
    trustedDocumentsPath: env.GRAPHQL_TRUSTED_DOCUMENTS || null,
    graphqlJit: flag(problems, env, 'GRAPHQL_JIT', true),
    graphqlFederation: flag(problems, env, 'GRAPHQL_FEDERATION', false),
    mcp: flag(problems, env, 'MCP', true),
    mcpExecuteTools: flag(problems, env, 'MCP_EXECUTE_TOOLS', false),
    responseCache: {
      enabled: flag(problems, env, 'RESPONSE_CACHE', true),
      ttlMs: integer(problems, env, 'RESPONSE_CACHE_TTL_MS', 60_000, 1_000, 86_400_000),
      maxBytes: cacheBytes,
      maxAccountBytes: integer(problems, env, 'RESPONSE_CACHE_MAX_ACCOUNT_BYTES', Math.floor(cacheBytes / 8), 4_096, cacheBytes),
      maxEntryBytes: integer(problems, env, 'RESPONSE_CACHE_MAX_ENTRY_BYTES', 1024 * 1024, 1_024, 64 * 1024 * 1024),
    },
    compressMinBytes: integer(problems, env, 'COMPRESS_MIN_BYTES', 4_096, 0, 1024 * 1024),
    signup: oneOf(problems, env, 'SIGNUP', ['open', 'off'] as const, 'off') === 'open',
    delivery: deliveryConfig(problems, env),
    corsOrigins: origins(problems, env),
    redis: redisConfig(problems, env),
    oidc: oidcConfig(problems, env),
    trustProxy: trustProxy(problems, env),
    shutdownDelayMs: integer(problems, env, 'SHUTDOWN_DELAY_MS', 0, 0, 60_000),
    metrics: metricsConfig(problems, env, port),
    tracing: tracingConfig(problems, env),
    subscriptions: {
      pollMs: integer(problems, env, 'SUBSCRIPTION_POLL_MS', 250, 10, 60_000),
      perKey: integer(problems, env, 'SUBSCRIPTIONS_PER_KEY', 10, 1, 1_000),
      socketIdleMs: integer(problems, env, 'SUBSCRIPTION_SOCKET_IDLE_MS', 30_000, 1_000, 3_600_000),
    },
    limits: {
      requestTimeoutMs: integer(problems, env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
      maxConnections: integer(problems, env, 'MAX_CONNECTIONS', 1_024, 1, 1_000_000),
    },
    rateLimit: {
      perKey: integer(problems, env, 'RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000),
      messagesPerKey: integer(problems, env, 'MESSAGE_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
      perAddressWithoutKey: integer(problems, env, 'UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
      signupsPerAddress: integer(problems, env, 'SIGNUP_RATE_LIMIT_PER_MINUTE', 2, 1, 1_000),
      newAccounts: integer(problems, env, 'NEW_ACCOUNTS_PER_MINUTE', 60, 1, 100_000),
    },
  };
  // Where only the manifest's documents run, a tool running any document would undo that.
  if (config.mcpExecuteTools && config.nodeEnv === 'production' && config.trustedDocuments !== null) {
    problems.push(
      'MCP_EXECUTE_TOOLS runs any operation an agent writes: it cannot be on where only trusted documents run (NODE_ENV=production with GRAPHQL_TRUSTED_DOCUMENTS).',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
