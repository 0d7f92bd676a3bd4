import type { DatabaseConfig } from '../../src/config/load-config.ts';

/** A SQLite database's settings for a test that opens one itself (`openSqlite`): short waits, no replicas. */
export function sqliteConfig(url: string): DatabaseConfig {
  return {
    url,
    lockTimeoutMs: 100,
    poolSize: 1,
    statementTimeoutMs: 1000,
    connectTimeoutMs: 1000,
    pooler: 'none',
    migrationUrl: null,
    readUrls: [],
    readMaxLagMs: 2_000,
  };
}
