import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Face, Metrics, MetricsSources } from './metrics-types.ts';
import { observeSources } from './scrape-gauges.ts';
import { counter, histogram, registerIn } from './metric-cells.ts';
import { processMetrics } from './process-metrics.ts';
import { operationNames } from './operation-names.ts';
import { memo } from '../util/memo.ts';

/** Request and operation durations: from a cache hit (sub-millisecond) to a request timing out (30 s). */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Statements are shorter: SQLite answers in microseconds. */
const STATEMENT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

export interface MetricsOptions {
  /** `sqlite` or `postgresql` (OpenTelemetry's db.system.name). */
  dbSystem: string;
  version: string;
  /** The source revision of this build (config/version.ts). */
  revision: string;
  /** Distinct GraphQL operation names that may earn labels; the rest are counted as `(other)`. */
  maxOperationNames: number;
  /** Operation names labeled from the start (the trusted documents'). */
  knownOperationNames?: readonly string[];
  /** Which face a route belongs to. */
  faceOf: (route: string) => Face;
  /** nodejs_gc_duration_seconds (METRICS_GC): opt-in for its cost. */
  gc: boolean;
}

/**
 * Every metric the server exports, in the Prometheus text format, named after OpenTelemetry's
 * semantic conventions where one exists (docs/observability.md lists them with their labels).
 * One registry per app: tests build many apps in one process.
 */
export function createMetrics({
  dbSystem,
  version,
  revision,
  maxOperationNames,
  knownOperationNames,
  faceOf,
  gc,
}: MetricsOptions): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const runtime = processMetrics(registry, { gc });
  new Gauge({
    name: 'petstore_build_info',
    help: 'This release, the source revision it was built from, and the database it runs on.',
    labelNames: ['version', 'revision', 'db_system_name'],
    registers,
  })
    .labels({ version, revision, db_system_name: dbSystem })
    .set(1);

  const register = <T extends { name: string }>(metric: T): T => registerIn(registry, metric);
  const requests = register(
    histogram(
      'http_server_request_duration_seconds',
      'HTTP requests by method, route template, status and face (rest, graphql, mcp); subscription streams left out.',
      DURATION_BUCKETS,
    ),
  );
  const operations = register(
    histogram(
      'graphql_server_operation_duration_seconds',
      'GraphQL operations executed, by type and name (anonymous and past the name limit folded), and whether the result had errors.',
      DURATION_BUCKETS,
    ),
  );
  const mcpOperations = register(
    histogram(
      'mcp_server_operation_duration_seconds',
      "MCP requests answered, by method, tool (tools/call) and the catalogue code of a failure (error_type; '' when none).",
      DURATION_BUCKETS,
    ),
  );
  const statements = register(
    histogram(
      'db_client_operation_duration_seconds',
      'Database statements, by engine and kind (SELECT, INSERT, UPDATE, DELETE, BEGIN, COMMIT, ...), and whether they failed.',
      STATEMENT_BUCKETS,
    ),
  );
  const errors = register(
    counter(
      'petstore_errors_total',
      'Errors answered, by face and catalogue code (REST: the Error body; GraphQL: each error of a result).',
    ),
  );
  const refusals = register(counter('petstore_rate_limit_refusals_total', 'Requests refused with 429, by the budget that was spent.'));
  const keyLookups = register(
    counter(
      'petstore_api_key_cache_lookups_total',
      'Bearer keys checked: answered from the verified-key cache (hit) or read from the database (miss).',
    ),
  );
  const readSources = register(
    counter('petstore_reads_total', 'Read-only requests, by where their reads went (with DATABASE_READ_URLS): a replica, or the primary.'),
  );
  const tokenRefusals = register(
    counter(
      'petstore_access_token_refusals_total',
      'Bearer access tokens refused, by reason (expired, audience, issuer, signature, algorithm, issuer_unavailable, …).',
    ),
  );
  const cacheLookups = register(
    counter(
      'petstore_response_cache_lookups_total',
      'GraphQL queries looked up in the response cache: answered from it (hit), or run and kept (miss).',
    ),
  );
  const lockWaits = new Counter({
    name: 'petstore_sqlite_lock_wait_seconds_total',
    help: "SQLite: time statements spent waiting for another process's write lock.",
    registers,
  });
  const attempts = new Histogram({
    name: 'petstore_message_delivery_duration_seconds',
    help: 'Message delivery attempts, by transport and outcome (sent, retry, failed: gave up).',
    labelNames: ['transport', 'outcome'],
    buckets: DURATION_BUCKETS,
    registers,
  });
  const attemptsPerMessage = new Histogram({
    name: 'petstore_message_delivery_attempts',
    help: 'Attempts a message took, counted when it is settled (sent, or failed after the last attempt).',
    labelNames: ['outcome'],
    buckets: [1, 2, 3, 5, 8, 13],
    registers,
  });
  const names = operationNames({ max: maxOperationNames, known: knownOperationNames });
  // One series per label values, made when first seen and then found through maps keyed by
  // those values: nothing is built or hashed per observation.
  const requestCell = memo((route: string) =>
    memo((method: string) =>
      memo((status: number) =>
        requests.cell({ http_request_method: method, http_route: route, http_response_status_code: status, face: faceOf(route) }),
      ),
    ),
  );
  const statementCell = memo((operation: string) =>
    memo((failed: boolean) =>
      statements.cell({ db_system_name: dbSystem, db_operation_name: operation, outcome: failed ? 'error' : 'success' }),
    ),
  );
  const operationCell = memo((type: string) =>
    memo((name: string) =>
      memo((failed: boolean) =>
        operations.cell({ graphql_operation_type: type, graphql_operation_name: name, outcome: failed ? 'error' : 'success' }),
      ),
    ),
  );
  const mcpCell = memo((method: string) =>
    memo((tool: string) =>
      memo((errorType: string) => mcpOperations.cell({ mcp_method_name: method, gen_ai_tool_name: tool, error_type: errorType })),
    ),
  );
  const errorCell = memo((face: Face) => memo((code: string) => errors.cell({ face, code })));
  const refusalCell = memo((budget: string) => refusals.cell({ budget }));
  const tokenRefusalCell = memo((reason: string) => tokenRefusals.cell({ reason }));
  const [keyHits, keyMisses] = [keyLookups.cell({ result: 'hit' }), keyLookups.cell({ result: 'miss' })];
  const [cacheHits, cacheMisses] = [cacheLookups.cell({ result: 'hit' }), cacheLookups.cell({ result: 'miss' })];
  const [replicaReads, primaryReads] = [readSources.cell({ source: 'replica' }), readSources.cell({ source: 'primary' })];

  return {
    enabled: true,
    contentType: registry.contentType,
    text: () => registry.metrics(),
    request: (route, method, status, seconds) => requestCell(route)(method)(status).observe(seconds),
    operation: (type, name, failed, seconds) => operationCell(type)(names.label(name))(failed).observe(seconds),
    knowOperations: (known) => names.know(known),
    mcpOperation: (method, tool, errorCode, seconds) => mcpCell(method)(tool ?? '')(errorCode ?? '').observe(seconds),
    error: (face, code) => errorCell(face)(code).inc(),
    refused: (budget) => refusalCell(budget).inc(),
    statement: (operation, failed, seconds) => statementCell(operation)(failed).observe(seconds),
    lockWait: (seconds) => lockWaits.inc(seconds),
    keyLookup: (hit) => (hit ? keyHits : keyMisses).inc(),
    tokenRefused: (reason) => tokenRefusalCell(reason).inc(),
    responseCache: (hit) => (hit ? cacheHits : cacheMisses).inc(),
    reads: (source) => (source === 'replica' ? replicaReads : primaryReads).inc(),
    delivery(transport, outcome, attempt, seconds) {
      attempts.labels({ transport, outcome }).observe(seconds);
      if (outcome !== 'retry') attemptsPerMessage.labels({ outcome }).observe(attempt);
    },
    close: () => runtime.close(),
    observe(sources: MetricsSources) {
      observeSources(registry, dbSystem, sources);
    },
  };
}
