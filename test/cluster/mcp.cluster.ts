import pg from 'pg';
import { freePort, petstore } from '../helpers/cli.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { connectSdk, SDK_CLIENTS } from '../helpers/mcp.ts';
import { ENGINE } from '../helpers/test-database.ts';
import { redisEnv } from '../helpers/test-redis.ts';
import { startBalancer } from './balancer.ts';
import { Instances } from './instances.ts';

// MCP is stateless: three instances behind the committed HAProxy config (round robin, no
// stickiness) serve one agent's calls, each message wherever it lands. Writes carry an
// idempotency key in _meta, and every tenth is sent twice, as an agent retrying after a lost
// answer would: each stored once.

const CALLS = 100;

describe('an agent’s tool calls through HAProxy to three instances, no sticky sessions', { timeout: 300_000 }, () => {
  it.for(SDK_CLIENTS)('%s: 100 calls, reads and writes, none failed, every write stored once', async (which, { databaseUrl, serve }) => {
    expect(ENGINE, 'npm run test:cluster runs on PostgreSQL (TEST_DATABASE_URL)').toBe('postgres');
    const env = { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '4', ...redisEnv(), TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'info' };
    const key = petstore(['keys', 'create', '--account', 'agent'], env).stdout.trim().split('\n').at(-1) ?? '';
    const instances = await Instances.launch(3, serve, env);
    const balancer = await startBalancer(
      await freePort(),
      instances.list.map((instance) => `127.0.0.1:${instance.port}`),
    );
    const client = await connectSdk(which, `${balancer.origin}/mcp`, { authorization: `Bearer ${key}` });
    const failures: string[] = [];
    const written = new Map<string, string>();
    try {
      for (let i = 0; i < CALLS; i++) {
        const write = i % 2 === 0;
        // Every tenth write is a retry of the one before it: same key, same arguments.
        const n = write && i % 20 === 10 ? i - 2 : i;
        const call = write
          ? {
              name: 'add_pet',
              arguments: { name: `agent-${n}`, categoryId: 1 },
              _meta: { 'io.petstore/idempotency-key': `agent-call-${n}` },
            }
          : { name: 'list_pets', arguments: { first: 5 } };
        try {
          const result = (await client.callTool(call)) as {
            isError?: boolean;
            structuredContent?: { createPet?: { id: string } };
            content: { text: string }[];
          };
          if (result.isError) failures.push(`${call.name}: ${result.content[0]?.text}`);
          const id = result.structuredContent?.createPet?.id;
          if (write && id) {
            const before = written.get(`agent-${n}`);
            if (before !== undefined && before !== id) failures.push(`agent-${n} answered ids ${before} and ${id}`);
            written.set(`agent-${n}`, id);
          }
        } catch (error) {
          failures.push(`${call.name}: ${(error as Error).message}`);
        }
      }
    } finally {
      await client.close();
      await balancer.stop();
    }
    expect(failures).toEqual([]);
    // Every instance answered some of the agent's calls: nothing pinned it to one.
    const served = instances.list.map((instance) => (instance.server.stdout().match(/"url":"\/mcp"/g) ?? []).length);
    for (const count of served) expect(count).toBeGreaterThan(10);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ name: string; n: string }>(
        "select name, count(*) as n from pets where name like 'agent-%' group by name",
      );
      expect(rows.length).toBe(written.size);
      expect(rows.every((row) => row.n === '1')).toBe(true);
    } finally {
      await db.end();
    }
    for (const instance of instances.list) await instance.server.stop();
  });
});
