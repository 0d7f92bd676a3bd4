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
    });
    expect(config.rateLimit).toEqual({ perKey: 600, messagesPerKey: 60, perAddressWithoutKey: 60 });
    expect(config.limits).toEqual({ requestTimeoutMs: 30_000, maxConnections: 1024 });
    expect(config.graphiql).toBe(true);
    expect(config.corsOrigins).toEqual([]);
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
      }),
    ).toEqual([
      "PORT must be an integer from 0 to 65535 (got '70000').",
      "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got 'loud').",
      "GRAPHIQL must be true or false (got 'yes').",
      "MESSAGE_WEBHOOK_URL must be an http(s) URL (got 'ftp://x').",
      "CORS_ORIGINS must list origins like https://app.example.com, comma-separated (got 'https://a.example/path').",
      "REQUEST_TIMEOUT_MS must be an integer from 100 to 600000 (got '5').",
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

  it('needs a delivery lease longer than a webhook attempt', () => {
    expect(problemsOf({ MESSAGE_WEBHOOK_TIMEOUT_MS: '5000', MESSAGE_LEASE_MS: '5000' })).toEqual([
      'MESSAGE_LEASE_MS (5000) must be longer than MESSAGE_WEBHOOK_TIMEOUT_MS (5000).',
    ]);
  });
});
