import { createApiKey } from '../../src/services/api-keys/index.ts';
import { defaultDocuments } from '../../src/mcp/default-documents.ts';
import { petstoreSchema } from '../../src/graphql/petstore-schema.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { connectSdk, DEFAULT_TOOLS, READ_TOOLS, SDK_CLIENTS } from '../helpers/mcp.ts';
import type { SdkClient } from '../helpers/mcp.ts';
import type { TestApp } from '../helpers/test-app.ts';

// The official SDK clients, as agents use them, over a real socket: @modelcontextprotocol/sdk
// 1.x (2025-11-25) and @modelcontextprotocol/client 2.x, both as a 2025 client and pinned to
// 2026-07-28. Each lists the tools and calls every one; each answer's structured content is what
// the GraphQL face answers the same account for the same operation (the SDKs also check it
// against the tool's output schema, and would throw were it not to match).

const TOOLS = DEFAULT_TOOLS;
const READS = READ_TOOLS;

interface Result {
  structuredContent?: Record<string, unknown>;
  content: { type: string; text: string }[];
  isError?: boolean;
}

/** The same operation over GraphQL, for the same account: its data. */
async function overGraphQL(t: TestApp, authorization: string, operationName: string, variables: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { authorization, 'content-type': 'application/json', 'cache-control': 'no-cache' },
    payload: { query: defaultDocuments(petstoreSchema()), operationName, variables },
  });
  const body = res.json() as { data?: Record<string, unknown>; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return body.data;
}

let accounts = 0;

describe.for(SDK_CLIENTS)('%s', (which) => {
  it('lists the tools, each described, with its schemas and hints', async ({ t }) => {
    const client = await connectSdk(which, `${await t.listen()}/mcp`, t.auth);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
      for (const tool of tools) {
        expect(tool.description, tool.name).toMatch(/\w+/);
        expect(tool.inputSchema).toMatchObject({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          additionalProperties: false,
        });
        expect(tool.outputSchema).toMatchObject({ type: 'object' });
        expect(tool.annotations).toMatchObject({ readOnlyHint: READS.has(tool.name), openWorldHint: false });
      }
      // What each write does, as a client shows it before a call: only adding is neither destructive nor idempotent.
      const writes = tools.filter((tool) => !READS.has(tool.name));
      expect(Object.fromEntries(writes.map((tool) => [tool.name, tool.annotations]))).toEqual({
        add_pet: { title: 'Add pet', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        send_message: { title: 'Send message', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        place_order: { title: 'Place order', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        advance_order: { title: 'Advance order', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
        cancel_order: { title: 'Cancel order', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      });
      const addPet = tools.find((tool) => tool.name === 'add_pet');
      expect(addPet?.inputSchema).toMatchObject({
        required: ['name', 'categoryId'],
        properties: {
          // What the API accepts (test/mcp/accepted-values.test.ts): createPet refuses an explicit null status.
          name: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S', description: '1-100 characters, not blank.' },
          categoryId: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A positive integer up to 2^53-1.' },
          status: { type: 'string', enum: ['available', 'pending', 'sold'], description: 'Defaults to available.' },
        },
      });
      // int64 ids as the API gives them: GraphQL's ID, a string (an integer taken too, as GraphQL's ID takes one).
      const getPet = tools.find((tool) => tool.name === 'get_pet');
      expect(getPet?.inputSchema).toMatchObject({ properties: { id: { type: ['string', 'integer'] } }, required: ['id'] });
      expect(getPet?.outputSchema).toMatchObject({ properties: { pet: { properties: { id: { type: 'string' } } } } });
    } finally {
      await client.close();
    }
  });

  it('lists a read-only key only the tools it may call', async ({ t }) => {
    const { key } = await createApiKey(t.db, `sdk-${++accounts}`, { scopes: ['petstore:read'] });
    const client = await connectSdk(which, `${await t.listen()}/mcp`, { authorization: `Bearer ${key}` });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOLS.filter((name) => READS.has(name)));
    } finally {
      await client.close();
    }
  });

  it('calls every tool, each answer what GraphQL answers the same account', async ({ t }) => {
    const { key } = await createApiKey(t.db, `sdk-${++accounts}`);
    const authorization = `Bearer ${key}`;
    const client: SdkClient = await connectSdk(which, `${await t.listen()}/mcp`, { authorization });
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as Result;
      expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
      // The same answer as text, for clients that read only text.
      expect(JSON.parse(result.content[0]?.text ?? 'null')).toEqual(result.structuredContent);
      return result.structuredContent as Record<string, Record<string, unknown>>;
    };
    /** A query tool: the very answer GraphQL gives. */
    const read = async (name: string, args: Record<string, unknown>) => {
      const answer = await call(name, args);
      expect(answer, name).toEqual(await overGraphQL(t, authorization, name, args));
      return answer;
    };
    try {
      // A write: what it answers is the record GraphQL reads back.
      const added = (await call('add_pet', { name: `Ada (${which})`, categoryId: 3 })).createPet as { id: string };
      expect((await read('get_pet', { id: added.id })).pet).toEqual(added);
      await read('list_pets', { first: 5 });
      await read('list_pets', { first: 2, status: 'available' });
      const sent = (await call('send_message', { message: 'hello from an agent' })).sendMessage as Record<string, unknown>;
      expect((await read('get_message', { id: sent.id })).message).toMatchObject(sent);
      const placed = (await call('place_order', { petId: added.id, quantity: 2 })).placeOrder as Record<string, unknown>;
      expect((await read('list_orders', {})).orders?.nodes as unknown[]).toEqual([placed]);
      const advanced = (await call('advance_order', { id: placed.id, status: 'approved' })).advanceOrder;
      expect((await read('list_orders', { status: 'approved' })).orders?.nodes as unknown[]).toEqual([advanced]);
      expect((await call('cancel_order', { id: placed.id })).cancelOrder).toEqual({ cancelledOrderId: placed.id });
      expect((await read('list_orders', {})).orders?.nodes).toEqual([]);
      expect((await read('get_pet', { id: added.id })).pet).toMatchObject({ status: 'available' });
    } finally {
      await client.close();
    }
  });

  it('gets a failed result, with the catalogue’s words, for a bad argument and a missing record', async ({ t }) => {
    const client = await connectSdk(which, `${await t.listen()}/mcp`, t.auth);
    try {
      const bad = (await client.callTool({ name: 'list_pets', arguments: { first: 0 } })) as Result;
      expect(bad.isError).toBe(true);
      expect(JSON.parse(bad.content[0]?.text ?? '')).toEqual({
        code: 'VALIDATION_FAILED',
        message: "Argument 'first' must be at least 1.",
        status: 400,
      });
      const missing = (await client.callTool({ name: 'get_pet', arguments: { id: '424242' } })) as Result;
      expect(JSON.parse(missing.content[0]?.text ?? '')).toEqual({
        code: 'PET_NOT_FOUND',
        message: 'Pet 424242 could not be found.',
        status: 404,
      });
    } finally {
      await client.close();
    }
  });

  it('gets a failed result, not an exception, for a spent rate limit and an idempotency key reused or of the wrong form', async ({
    makeApp,
  }) => {
    const t = await makeApp({ RATE_LIMIT_PER_MINUTE: '8' });
    const client = await connectSdk(which, `${await t.listen()}/mcp`, t.auth);
    const errorOf = (result: Result) => (result.isError ? (JSON.parse(result.content[0]?.text ?? '') as { code: string }) : null);
    try {
      const key = (value: unknown) => ({ 'io.petstore/idempotency-key': value });
      const first = (await client.callTool({ name: 'add_pet', arguments: { name: 'Once', categoryId: 1 }, _meta: key('sdk-1') })) as Result;
      expect(first.isError).toBeFalsy();
      const reused = (await client.callTool({
        name: 'add_pet',
        arguments: { name: 'Twice', categoryId: 1 },
        _meta: key('sdk-1'),
      })) as Result;
      expect(errorOf(reused)).toEqual({
        code: 'IDEMPOTENCY_KEY_REUSED',
        message: 'This Idempotency-Key was already used with a different request.',
        status: 422,
      });
      for (const wrong of [{ a: 1 }, 7, ['sdk-2']]) {
        const refused = (await client.callTool({
          name: 'add_pet',
          arguments: { name: 'Odd', categoryId: 1 },
          _meta: key(wrong),
        })) as Result;
        expect(errorOf(refused), JSON.stringify(wrong)).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
        expect(errorOf(refused)?.code === 'VALIDATION_FAILED' && JSON.stringify(refused)).toMatch(/must be a string/);
      }
      expect(await t.count('pets')).toBe(1);
      // Every call is charged; the one past the budget is the model's to read, with the catalogue's words.
      let spent: { code: string } | null = null;
      for (let call = 0; call < 10 && !spent; call++)
        spent = errorOf((await client.callTool({ name: 'list_pets', arguments: {} })) as Result);
      expect(spent).toMatchObject({ code: 'RATE_LIMITED', status: 429, message: expect.stringMatching(/retry in \d+ s/) });
    } finally {
      await client.close();
    }
  });

  it('is refused without a credential, with the challenge an SDK client reads', async ({ t }) => {
    await expect(connectSdk(which, `${await t.listen()}/mcp`, {})).rejects.toThrow(/401|Unauthorized|resource_metadata/i);
  });
});
