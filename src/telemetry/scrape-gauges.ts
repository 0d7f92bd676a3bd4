import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { MetricsSources } from './metrics-types.ts';

/** Gauges read when Prometheus scrapes: nothing is kept up to date between scrapes. */
export function observeSources(
  registry: Registry,
  dbSystem: string,
  { pool, subscriptions, outbox, documents, responseCache, rateLimitsOpen, replicas }: MetricsSources,
): void {
  const registers = [registry];
  if (pool) {
    new Gauge({
      name: 'db_client_connection_count',
      help: 'PostgreSQL pool connections, by state (used, idle).',
      labelNames: ['db_system_name', 'db_client_connection_state'],
      registers,
      collect() {
        const { used, idle } = pool();
        this.labels({ db_system_name: dbSystem, db_client_connection_state: 'used' }).set(used);
        this.labels({ db_system_name: dbSystem, db_client_connection_state: 'idle' }).set(idle);
      },
    });
    new Gauge({
      name: 'db_client_connection_pending_requests',
      help: 'PostgreSQL: requests waiting for a pool connection.',
      labelNames: ['db_system_name'],
      registers,
      collect() {
        this.labels({ db_system_name: dbSystem }).set(pool().waiting);
      },
    });
  }
  if (subscriptions) {
    new Gauge({
      name: 'petstore_subscriptions_open',
      help: 'GraphQL subscriptions open on this instance.',
      registers,
      collect() {
        this.set(subscriptions());
      },
    });
  }
  if (documents) {
    new Gauge({
      name: 'petstore_graphql_documents_cached_bytes',
      help: 'Memory held by the parsed GraphQL documents this instance remembers (estimated; bounded at 32 MiB).',
      registers,
      collect() {
        this.set(documents());
      },
    });
  }
  if (responseCache) {
    new Gauge({
      name: 'petstore_response_cache_bytes',
      help: 'What the GraphQL response store holds against RESPONSE_CACHE_MAX_BYTES (in Redis, every instance together).',
      registers,
      async collect() {
        this.set(await responseCache());
      },
    });
  }
  if (rateLimitsOpen) {
    new Gauge({
      name: 'petstore_rate_limits_open',
      help: 'Whether this instance lets requests through uncounted (1) because Redis, which counts the shared budgets, does not answer; 0 while it counts.',
      registers,
      collect() {
        this.set(rateLimitsOpen() ? 1 : 0);
      },
    });
  }
  if (replicas) {
    new Gauge({
      name: 'petstore_replica_usable',
      help: 'Whether this instance sends reads to the replica (1): it answers, is a standby, and is at most DATABASE_READ_MAX_LAG_MS behind.',
      labelNames: ['replica'],
      registers,
      collect() {
        for (const { name, usable } of replicas()) this.set({ replica: name }, usable ? 1 : 0);
      },
    });
    new Gauge({
      name: 'petstore_replica_lag_bytes',
      help: "WAL the replica has yet to replay, as of this instance's last look at it and at the primary.",
      labelNames: ['replica'],
      registers,
      collect() {
        for (const { name, lagBytes } of replicas()) if (lagBytes !== null) this.set({ replica: name }, lagBytes);
      },
    });
  }
  if (outbox) {
    // One query for both, when scraped: every instance reports the same shared outbox (use max, not sum).
    let reading: Promise<{ queued: number; oldestAgeSeconds: number }> | null = null;
    const read = () => (reading ??= outbox().finally(() => setTimeout(() => (reading = null), 1_000).unref()));
    new Gauge({
      name: 'petstore_messages_queued',
      help: 'Messages waiting in the outbox (shared by every instance).',
      registers,
      async collect() {
        this.set((await read()).queued);
      },
    });
    new Gauge({
      name: 'petstore_messages_oldest_queued_age_seconds',
      help: 'Age of the oldest message waiting in the outbox; 0 when none waits.',
      registers,
      async collect() {
        this.set((await read()).oldestAgeSeconds);
      },
    });
  }
}
