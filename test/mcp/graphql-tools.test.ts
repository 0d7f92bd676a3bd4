import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load-config.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { callTool, connectSdk, mcp, SDK_CLIENTS } from '../helpers/mcp.ts';

// validate_graphql and execute_graphql run a document the agent writes, through the one pipeline:
// off by default, and never where only trusted documents run.

const names = async (t: Parameters<typeof mcp>[0], headers = t.auth) =>
  ((await mcp(t, 'tools/list', {}, { headers })).body.result?.tools as { name: string }[]).map((tool) => tool.name);

describe('validate_graphql and execute_graphql', () => {
  it('are off by default, and refused where only trusted documents run', async ({ t, tmp }) => {
    expect(await names(t)).not.toContain('execute_graphql');
    const manifest = join(tmp, 'persisted-documents.json');
    const text = '{ pets { totalCount } }';
    writeFileSync(manifest, JSON.stringify({ [`sha256:${createHash('sha256').update(text).digest('hex')}`]: text }));
    const env = { MCP_EXECUTE_TOOLS: 'true', GRAPHQL_TRUSTED_DOCUMENTS: manifest };
    expect(() => loadConfig({ ...env, NODE_ENV: 'production' })).toThrow(/MCP_EXECUTE_TOOLS runs any operation an agent writes/);
    expect(loadConfig(env).mcpExecuteTools).toBe(true);
    expect(loadConfig({ MCP_EXECUTE_TOOLS: 'true', NODE_ENV: 'production' }).mcpExecuteTools).toBe(true);
  });

  it('validate a document as POST /graphql would, running and charging nothing', async ({ makeApp }) => {
    const t = await makeApp({ MCP_EXECUTE_TOOLS: 'true' });
    expect(await names(t)).toEqual(expect.arrayContaining(['validate_graphql', 'execute_graphql']));
    expect((await callTool(t, 'validate_graphql', { query: '{ pets { totalCount } }' })).data).toEqual({ valid: true, errors: [] });
    const wrong = await callTool(t, 'validate_graphql', { query: '{ pets { weight } }' });
    expect(wrong.data).toEqual({
      valid: false,
      errors: [{ code: 'VALIDATION_FAILED', message: expect.stringContaining('Cannot query field "weight" on type "PetConnection"') }],
    });
    const broken = await callTool(t, 'validate_graphql', { query: '{ pets { ' });
    expect(broken.data).toMatchObject({ valid: false, errors: [{ code: 'GRAPHQL_PARSE_FAILED' }] });
    const mutation = await callTool(t, 'validate_graphql', {
      query: 'mutation { createPet(input: { name: "Rex", categoryId: 1 }) { id } }',
    });
    expect(mutation.data).toEqual({ valid: true, errors: [] });
    expect(await t.count('pets')).toBe(0);
  });

  it('execute a document under the caller’s scopes and limits, its data what GraphQL answers', async ({ makeApp }) => {
    const t = await makeApp({ MCP_EXECUTE_TOOLS: 'true' });
    const added = await callTool(t, 'execute_graphql', {
      query: 'mutation Add($name: String!) { createPet(input: { name: $name, categoryId: 2 }) { id name } }',
      variables: { name: 'Rex' },
    });
    expect(added.data).toEqual({ createPet: { id: '1', name: 'Rex' } });
    const read = await callTool(t, 'execute_graphql', {
      query: 'query A { a: pet(id: 1) { name } } query B { b: pet(id: 2) { name } }',
      operationName: 'A',
    });
    expect(read.data).toEqual({ a: { name: 'Rex' } });
    // A read-only credential is refused a write before anything runs, with the step-up challenge.
    const reader = { authorization: `Bearer ${(await createApiKey(t.db, 'reader', { scopes: ['petstore:read'] })).key}` };
    const refused = await callTool(
      t,
      'execute_graphql',
      { query: 'mutation { createPet(input: { name: "No", categoryId: 2 }) { id } }' },
      { headers: reader },
    );
    expect(refused.res.statusCode).toBe(403);
    expect(refused.res.headers['www-authenticate']).toContain('scope="petstore:write"');
    expect(await t.count('pets')).toBe(1);
    // The cost limit, a subscription, an unknown field: failed calls in the API's words.
    const heavy = `{ ${Array.from({ length: 10 }, (_, i) => `p${i}: pets(first: 100) { nodes { orders { pet { name } } } }`).join(' ')} }`;
    expect((await callTool(t, 'execute_graphql', { query: heavy })).failure?.code).toBe('QUERY_TOO_COMPLEX');
    expect((await callTool(t, 'execute_graphql', { query: 'subscription { petCreated { id } }' })).failure?.code).toBe('NOT_ACCEPTABLE');
    expect((await callTool(t, 'execute_graphql', { query: '{ nope }' })).failure?.code).toBe('VALIDATION_FAILED');
    // A retried write with its idempotency key is stored once.
    const meta = { 'io.petstore/idempotency-key': 'exec-1' };
    const once = { query: 'mutation { createPet(input: { name: "Once", categoryId: 2 }) { id } }' };
    const first = await callTool(t, 'execute_graphql', once, { meta });
    const again = await callTool(t, 'execute_graphql', once, { meta });
    expect(again.data).toEqual(first.data);
    expect(again.res.headers['idempotent-replayed']).toBe('true');
    expect(await t.count('pets')).toBe(2);
  });
});

describe.for(SDK_CLIENTS)('execute_graphql with %s', (which) => {
  it('runs a query an agent wrote', async ({ makeApp }) => {
    const t = await makeApp({ MCP_EXECUTE_TOOLS: 'true' });
    const client = await connectSdk(which, `${await t.listen()}/mcp`, t.auth);
    try {
      const result = (await client.callTool({ name: 'execute_graphql', arguments: { query: '{ pets { totalCount } }' } })) as {
        structuredContent?: unknown;
      };
      expect(result.structuredContent).toEqual({ pets: { totalCount: 0 } });
    } finally {
      await client.close();
    }
  });
});
