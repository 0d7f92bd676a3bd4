import { stat } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from '../../helpers/fixtures.ts';
import { graphql } from '../../helpers/graphql.ts';
import { startPrivateRedis } from '../../helpers/private-redis.ts';
import type { PrivateRedis } from '../../helpers/private-redis.ts';

// A Redis that hangs (SIGSTOP: connections open, nothing answers, as a partition or a blocked
// primary looks) must cost what a Redis that refuses costs: nothing a request waits for.
// Measured by what reaches Redis, not by the clock: each command a request sent while it hung
// waits in its connection and is answered when it runs again, so Redis's own count of the
// commands it processed then says how many requests waited on it.

/**
 * Commands Redis processed since its statistics were reset, by name, but for the pings, this
 * test's own and a connection's setup (HELLO, CLIENT SETNAME, SELECT: what a client that
 * reconnects once Redis answers again sends before any request's command).
 */
async function commandsProcessed(redis: PrivateRedis): Promise<Record<string, number>> {
  const stats = String(await redis.client.info('commandstats'));
  const counted: Record<string, number> = {};
  for (const [, name = '', calls] of stats.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) {
    if (!['ping', 'info', 'config|resetstat', 'config', 'hello', 'client|setname', 'client|setinfo', 'select'].includes(name))
      counted[name] = Number(calls);
  }
  return counted;
}

/** Until two reads of Redis's count, 100 ms apart, agree: nothing sent earlier is still on its way. */
async function settled(redis: PrivateRedis): Promise<void> {
  const total = async () => Object.values(await commandsProcessed(redis)).reduce((sum, calls) => sum + calls, 0);
  for (let last = -1, now = await total(); now !== last;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    [last, now] = [now, await total()];
  }
}

describe('a Redis that hangs', () => {
  it('is found within a second, then costs requests nothing; counting and caching resume once it answers', async ({ makeApp }) => {
    const redis = await startPrivateRedis([]);
    try {
      const t = await makeApp({
        REDIS_URL: redis.url,
        RATE_LIMIT_PER_MINUTE: '10000',
        SIGNUP: 'open',
        SIGNUP_RATE_LIMIT_PER_MINUTE: '2',
        METRICS_PORT: '0',
      });
      const open = async () => /^petstore_rate_limits_open (\d)$/m.exec(await t.scrape())?.[1];
      const query = '{ pets(first: 2) { nodes { id } } }';
      // Counted and cached while it answers.
      expect((await t.call({ url: '/v1/pets' })).headers['ratelimit-policy']).toBe('"per-key";q=10000;w=60');
      await graphql(t, query);

      expect(await open(), 'limits enforced, and the metric says so').toBe('0');

      redis.freeze();
      // A second and a half: the guard's ping finds it hung within one.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await open(), 'limits open while Redis does not answer: a metric the alert reads').toBe('1');
      const took: number[] = [];
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const began = performance.now();
        const rest = await t.call({ url: '/v1/pets' });
        const gql = await graphql(t, query);
        took.push(performance.now() - began);
        statuses.push(rest.statusCode, gql.res.statusCode);
        expect(rest.headers['ratelimit-policy'], 'uncounted while Redis hangs').toBeUndefined();
      }
      // Sign-up's budget is a security limit: counted in this process meanwhile, never let through.
      const signups = [];
      for (let i = 0; i < 3; i++) {
        signups.push(
          (await t.app.inject({ method: 'POST', url: '/signup', payload: { account: `hung-${i}` }, remoteAddress: '198.51.100.3' }))
            .statusCode,
        );
      }
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(signups).toEqual([201, 201, 429]);

      redis.thaw();
      // Counting resumes by itself once a ping is answered.
      await expect
        .poll(async () => (await t.call({ url: '/v1/pets' })).headers['ratelimit-policy'], { timeout: 10_000 })
        .toBe('"per-key";q=10000;w=60');
      expect(await open()).toBe('0');
      process.stdout.write(
        `redis hung: 80 requests, slowest pair ${Math.round(Math.max(...took))} ms, median ${Math.round(took.sort((a, b) => a - b)[20] ?? 0)} ms\n`,
      );
    } finally {
      await redis.stop();
    }
  });

  it('sends a request’s commands to it only until it is found: none of the requests after waited on it', async ({ makeApp }) => {
    const redis = await startPrivateRedis([]);
    const lines: string[] = [];
    try {
      const t = await makeApp(
        { REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '10000', LOG_LEVEL: 'warn' },
        { logStream: { write: (line) => void lines.push(line) } },
      );
      await t.call({ url: '/v1/pets' });
      await graphql(t, '{ pets(first: 1) { nodes { id } } }');
      // What the two requests asked of Redis after their answers must land before the count starts,
      // or a loaded machine counts it: wait until Redis's own count stops moving.
      await settled(redis);
      await redis.client.config('RESETSTAT');
      redis.freeze();
      // Until both clients' guards have found it hung (their pings, within about a second; longer
      // on a loaded machine): what is asked of Redis after that is what this test counts.
      const warned = (text: string) => lines.some((line) => line.includes(text));
      await expect
        .poll(() => warned('rate limiting is off: Redis does not answer') && warned('response cache: Redis is not answering'), {
          timeout: 15_000,
        })
        .toBe(true);
      for (let i = 0; i < 30; i++) {
        expect((await t.call({ url: '/v1/pets' })).statusCode).toBe(200);
        expect((await graphql(t, '{ pets(first: 1) { nodes { id } } }')).res.statusCode).toBe(200);
      }
      // What was sent while it hung waits in the connections, and is answered now.
      redis.thaw();
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Without the guard: 60 requests' rate-limit takes and cache lookups. With it: none.
      expect(await commandsProcessed(redis)).toEqual({});
    } finally {
      await redis.stop();
    }
  });
});

describe('a Redis that answers while this process is slow', () => {
  it('is never marked away for the process’s own delay: limits stay counted and answers cached, with no warning', async ({ makeApp }) => {
    const redis = await startPrivateRedis([]);
    const lines: string[] = [];
    try {
      const t = await makeApp(
        { REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '10000', LOG_LEVEL: 'info' },
        { logStream: { write: (line) => void lines.push(line) } },
      );
      const query = '{ pets(first: 2) { nodes { id } } }';
      // Both clients connected and answering (a lookup before the cache's client is ready misses, saying so).
      await expect.poll(async () => (await t.call({ url: '/v1/pets' })).headers['ratelimit-policy']).toBeDefined();
      await graphql(t, query);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      lines.length = 0;
      // An overloaded instance: its event loop busy for 260 ms at every turn, in the turn's I/O
      // (a file read's callback, as a request's own work would be), past the 250 ms the rate
      // limiter (and the 100 ms the cache) gives Redis, while Redis answers at once: a command
      // sent before the busy callback in one turn has its answer read in the next, after its wait.
      let spinning = true;
      const spin = () => {
        if (!spinning) return;
        const until = performance.now() + 260;
        while (performance.now() < until);
        stat(import.meta.filename, spin);
      };
      stat(import.meta.filename, spin);
      const counted: (string | undefined)[] = [];
      try {
        for (let round = 0; round < 2; round++) {
          const answers = await Promise.all(
            Array.from({ length: 4 }, async () => {
              const rest = await t.call({ url: '/v1/pets' });
              expect((await graphql(t, query)).res.statusCode).toBe(200);
              return rest.headers['ratelimit-policy'] as string | undefined;
            }),
          );
          counted.push(...answers);
        }
      } finally {
        spinning = false;
      }
      expect(
        counted.every((policy) => policy === '"per-key";q=10000;w=60'),
        'every request counted',
      ).toBe(true);
      // Neither the rate limiter nor the response cache took Redis for away (each says so once when it does).
      const warnings = lines.filter((line) => /Redis (does not answer|is not answering)/.test(line));
      expect(warnings).toEqual([]);
    } finally {
      await redis.stop();
    }
  });
});
