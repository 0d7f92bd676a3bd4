import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.ts';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    return error instanceof ConfigError ? error.problems : [String(error)];
  }
};

describe('configuration from the environment', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
      logLevel: 'info',
      nodeEnv: 'development',
    });
    expect(config.database).toEqual({
      url: './data/petstore.db',
      poolSize: 10,
      statementTimeoutMs: 5000,
      lockTimeoutMs: 5000,
      connectTimeoutMs: 5000,
      pooler: 'none',
      migrationUrl: null,
      readUrls: [],
      readMaxLagMs: 2000,
    });
    expect(config.rateLimit).toEqual({ perKey: 600, newAccounts: 60, messagesPerKey: 60, perAddressWithoutKey: 60, signupsPerAddress: 2 });
    expect(config.signup).toBe(false);
    expect(config.limits).toEqual({ requestTimeoutMs: 30_000, maxConnections: 1024 });
    expect(config.graphiql).toBe(true);
    expect(config.corsOrigins).toEqual([]);
    expect(config).toMatchObject({ redis: null, trustProxy: false, shutdownDelayMs: 0 });
  });

  it('shares budgets through Redis when REDIS_URL is set, under a prefix, and never repeats a bad URL', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379/2',
      keyPrefix: 'petstore:',
    });
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.example', REDIS_KEY_PREFIX: 'eu1:' }).redis).toEqual({
      url: 'rediss://:pw@cache.example',
      keyPrefix: 'eu1:',
    });
    const problems = problemsOf({ REDIS_URL: 'http://:secret@cache.example' });
    expect(problems).toEqual(['REDIS_URL must be redis://[user:password@]host[:port][/db] (or rediss://).']);
  });

  it('believes X-Forwarded-For only from listed proxies, and refuses settings that believe anyone', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const value of ['1', 'true']) {
      expect(problemsOf({ TRUST_PROXY: value })).toEqual([
        `TRUST_PROXY=${value} would believe X-Forwarded-For from any peer, so a client reaching the server directly could forge its address; list the proxies' addresses instead (e.g. TRUST_PROXY=10.0.0.0/8 or TRUST_PROXY=loopback).`,
      ]);
    }
    for (const value of ['10.0.0.300', '10.0.0.0/33', 'proxy.example', '10.0.0.1/8/1']) {
      expect(problemsOf({ TRUST_PROXY: value }), value).toEqual([
        `TRUST_PROXY must be false or comma-separated addresses or CIDRs of the proxies (got '${value}').`,
      ]);
    }
  });

  it('turns GraphiQL and introspection off in production unless asked', () => {
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ graphiql: false, graphqlIntrospection: false });
    expect(loadConfig({ NODE_ENV: 'production', GRAPHIQL: 'true' }).graphiql).toBe(true);
  });

  it('reports every problem at once, naming the variable and the value', () => {
    expect(
      problemsOf({
        PORT: '70000',
        LOG_LEVEL: 'loud',
        GRAPHIQL: 'yes',
        CORS_ORIGINS: 'https://a.example/path',
        MESSAGE_WEBHOOK_URL: 'ftp://x',
        REQUEST_TIMEOUT_MS: '5',
        SHUTDOWN_DELAY_MS: '-1',
        SIGNUP: 'yes',
        SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
      }),
    ).toEqual([
      "PORT must be an integer from 0 to 65535 (got '70000').",
      "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got 'loud').",
      "GRAPHIQL must be true or false (got 'yes').",
      "SIGNUP must be one of open, off (got 'yes').",
      "MESSAGE_WEBHOOK_URL must be an http(s) URL (got 'ftp://x').",
      "CORS_ORIGINS must list origins like https://app.example.com, comma-separated (got 'https://a.example/path').",
      "SHUTDOWN_DELAY_MS must be an integer from 0 to 60000 (got '-1').",
      "REQUEST_TIMEOUT_MS must be an integer from 100 to 600000 (got '5').",
      "SIGNUP_RATE_LIMIT_PER_MINUTE must be an integer from 1 to 1000 (got '0').",
    ]);
  });

  it('wants base addresses that end in /v1 (contract §4)', () => {
    expect(problemsOf({ PUBLIC_BASE_URL: 'https://api.example/v2' })).toEqual([
      "PUBLIC_BASE_URL must be an http(s) URL ending in /v1 (got 'https://api.example/v2').",
    ]);
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example/v1/' }).publicBaseUrl).toBe('https://api.example/v1');
  });

  it('takes a PostgreSQL URL only with a host, and never repeats it (it may hold a password)', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:pw@db.example:5432/petstore' }).database.url).toBe(
      'postgres://u:pw@db.example:5432/petstore',
    );
    const problems = problemsOf({ DATABASE_URL: 'postgresql:///petstore?password=pw' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).not.toContain('pw');
  });

  it('takes read replicas on PostgreSQL only, each a postgres:// URL with a host, never repeating one', () => {
    const { database } = loadConfig({
      DATABASE_URL: 'postgres://db/petstore',
      DATABASE_READ_URLS: ' postgres://r1/petstore , postgresql://u:pw@r2:6432/petstore,',
    });
    expect([database.readUrls, database.readMaxLagMs]).toEqual([['postgres://r1/petstore', 'postgresql://u:pw@r2:6432/petstore'], 2_000]);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/petstore' }).database.readUrls).toEqual([]);
    expect(problemsOf({ DATABASE_READ_URLS: 'postgres://r1/petstore' })).toEqual([
      'DATABASE_READ_URLS is for PostgreSQL: DATABASE_URL names a SQLite file, which has no replicas.',
    ]);
    const problems = problemsOf({ DATABASE_URL: 'postgres://db/petstore', DATABASE_READ_URLS: 'postgres://r1/p,mysql://u:pw@r2/p' });
    expect(problems).toEqual([
      'DATABASE_READ_URLS: entry 2 must be postgres://[user[:password]@]host[:port]/database (a streaming replica).',
    ]);
    expect(problemsOf({ DATABASE_URL: 'postgres://db/petstore', DATABASE_READ_MAX_LAG_MS: '50' })[0]).toContain('DATABASE_READ_MAX_LAG_MS');
  });

  it('needs a delivery lease longer than a webhook attempt', () => {
    expect(problemsOf({ MESSAGE_WEBHOOK_TIMEOUT_MS: '5000', MESSAGE_LEASE_MS: '5000' })).toEqual([
      'MESSAGE_LEASE_MS (5000) must be longer than MESSAGE_WEBHOOK_TIMEOUT_MS (5000).',
    ]);
  });
});
