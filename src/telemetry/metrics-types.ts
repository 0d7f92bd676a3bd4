/** Which face answered: REST (/v1, /messages, /signup, the docs and probes), GraphQL (/graphql) or MCP (/mcp). */
export type Face = 'rest' | 'graphql' | 'mcp';

export type DeliveryOutcome = 'sent' | 'retry' | 'failed';

/** Values Prometheus reads when it scrapes, from the parts that hold them. */
export interface MetricsSources {
  /** PostgreSQL's pool: connections in use, idle, and requests waiting for one. */
  pool?: () => { used: number; idle: number; waiting: number };
  subscriptions?: () => number;
  outbox?: () => Promise<{ queued: number; oldestAgeSeconds: number }>;
  /** What the GraphQL documents this instance remembers hold in memory (estimated bytes). */
  documents?: () => number;
  /** What the response store holds, as it counts against its bound (in Redis: every instance's answers). */
  responseCache?: () => number | Promise<number>;
  /** Whether this instance's rate limits are open: their shared store (Redis) does not answer. */
  rateLimitsOpen?: () => boolean;
  /** PostgreSQL's read replicas as last judged: whether each answers reads, and the WAL it has yet to replay. */
  replicas?: () => { name: string; usable: boolean; lagBytes: number | null }[];
}

/**
 * What the app records. With METRICS_PORT unset every method is a no-op (NO_METRICS), so the
 * places that record never ask whether metrics are on.
 */
export interface Metrics {
  readonly enabled: boolean;
  readonly contentType: string;
  /** The exposition, in Prometheus's text format. */
  text(): Promise<string>;
  /** A request answered on `route` (its template; '' when none matched): its face follows from the route. */
  request(route: string, method: string, status: number, seconds: number): void;
  operation(type: string, name: string | undefined, failed: boolean, seconds: number): void;
  /** Operation names labeled from now on, as the trusted documents' are from the start: a reloaded manifest's. */
  knowOperations(names: Iterable<string>): void;
  /** An MCP request answered: its method, the tool it called (tools/call), and the catalogue code it failed with, if it did. */
  mcpOperation(method: string, tool: string | undefined, errorCode: string | undefined, seconds: number): void;
  error(face: Face, code: string): void;
  refused(budget: string): void;
  statement(operation: string, failed: boolean, seconds: number): void;
  lockWait(seconds: number): void;
  keyLookup(hit: boolean): void;
  /** An access token refused, by why (services/access-tokens/token-verifier.ts). */
  tokenRefused(reason: string): void;
  /** A GraphQL query's answer looked up in the response cache. */
  responseCache(hit: boolean): void;
  /** Where a read-only request's reads went, with read replicas configured (http/read-routing.ts). */
  reads(source: 'replica' | 'primary'): void;
  delivery(transport: string, outcome: DeliveryOutcome, attempt: number, seconds: number): void;
  observe(sources: MetricsSources): void;
  /** Stops what runs between scrapes (the GC profile's reader). */
  close(): void;
}

const nothing = () => undefined;

export const NO_METRICS: Metrics = {
  enabled: false,
  contentType: 'text/plain',
  text: async () => '',
  request: nothing,
  operation: nothing,
  knowOperations: nothing,
  mcpOperation: nothing,
  error: nothing,
  refused: nothing,
  statement: nothing,
  lockWait: nothing,
  keyLookup: nothing,
  tokenRefused: nothing,
  responseCache: nothing,
  reads: nothing,
  delivery: nothing,
  observe: nothing,
  close: nothing,
};
