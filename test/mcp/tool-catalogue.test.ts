import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { callTool, mcp } from '../helpers/mcp.ts';
import type { TestApp } from '../helpers/test-app.ts';

// Tools come from the trusted-document manifest when there is one: each named query and
// mutation a tool, described by the comment above it, its input and output schemas read from
// the operation over the schema. In production only the manifest runs, and so do the tools.

const DOCUMENTS = {
  frontPage: `# Pets by status, for the front page.
query FrontPage($status: PetStatus = available) {
  pets(first: 3, status: $status) { totalCount nodes { id name } }
}`,
  twoOperations: `query PetName($id: ID!) { pet(id: $id) { ...Named } }
fragment Named on Pet { label: name __typename }
# Adds a cat (category 7).
mutation AddCat($name: String!) { createPet(input: { name: $name, categoryId: 7 }) { id name categoryId } }`,
  anonymous: '{ pets { totalCount } }',
  subscription: 'subscription Watch { petCreated { id } }',
  described: `"Pets of one status, newest client's view." query Described("How many to show" $n: Int = 2, $status: PetStatus) @mcpTool(title: "Pets by status") {
  pets(first: $n, status: $status) { totalCount }
}
# Cancels, but as the manifest's author says: a confirmation is not needed.
mutation Undo($id: ID!) @mcpTool(destructiveHint: false) { cancelOrder(id: $id) { cancelledOrderId } }`,
  dupOne: 'query Dup { pets(first: 1) { totalCount } }',
  dupTwo: 'query Dup { pets(first: 2) { totalCount } }',
  heavy: `query Heavy { ${Array.from({ length: 10 }, (_, i) => `p${i}: pets(first: 100) { nodes { id orders { id pet { name } } } }`).join(' ')} }`,
  broken: 'query Broken { nope }',
};

const idOf = (text: string) => createHash('sha256').update(text).digest('hex');

async function manifestApp(
  makeApp: (env: Record<string, string>, options?: { logStream?: { write(line: string): void } }) => Promise<TestApp>,
  tmp: string,
  lines: string[] = [],
) {
  const path = join(tmp, 'persisted-documents.json');
  writeFileSync(path, JSON.stringify(Object.fromEntries(Object.values(DOCUMENTS).map((text) => [`sha256:${idOf(text)}`, text]))));
  return makeApp(
    { GRAPHQL_TRUSTED_DOCUMENTS: path, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    { logStream: { write: (line) => void lines.push(line) } },
  );
}

describe('tools from the trusted-document manifest', () => {
  it('makes each named query and mutation a tool; subscriptions, anonymous and invalid operations are none', async ({ makeApp, tmp }) => {
    const lines: string[] = [];
    const t = await manifestApp(makeApp, tmp, lines);
    const { tools } = (await mcp(t, 'tools/list')).body.result as {
      tools: { name: string; description: string; inputSchema: object; outputSchema: object; annotations: object }[];
    };
    // The first document naming an operation keeps the name: a manifest that grows never renames a tool.
    expect(tools.map((tool) => tool.name)).toEqual([
      'FrontPage',
      'PetName',
      'AddCat',
      'Described',
      'Undo',
      'Dup',
      `Dup_${idOf(DOCUMENTS.dupTwo).slice(0, 8)}`,
      'Heavy',
    ]);
    const warnings = lines.map((line) => JSON.parse(line) as { msg: string }).filter((line) => line.msg.startsWith('MCP'));
    expect(warnings.map((line) => line.msg)).toEqual([
      'MCP: a trusted document does not validate against the schema; it is no tool',
      'MCP: another document names an operation alike; the first keeps the tool name, this one is named with its document id',
    ]);
    const [frontPage, petName, addCat] = tools;
    expect(frontPage).toMatchObject({
      title: 'Front page',
      description: 'Pets by status, for the front page.',
      annotations: { readOnlyHint: true },
      inputSchema: {
        properties: {
          status: {
            type: ['string', 'null'],
            enum: ['available', 'pending', 'sold', null],
            description: 'Filters animals by status.',
          },
        },
      },
      outputSchema: {
        required: ['pets'],
        properties: {
          pets: {
            type: 'object',
            properties: {
              totalCount: { type: 'integer' },
              nodes: { type: 'array', items: { type: 'object', required: ['id', 'name'], additionalProperties: false } },
            },
          },
        },
      },
    });
    // A variable with a default may be left out.
    expect(frontPage?.inputSchema).not.toHaveProperty('required');
    // A fragment's fields, under their aliases; a nullable field may be null. Without a comment, the field's description.
    expect(petName).toMatchObject({
      description: 'One pet by id, or null with a PET_NOT_FOUND error.',
      outputSchema: {
        properties: { pet: { type: ['object', 'null'], properties: { label: { type: 'string' }, __typename: { type: 'string' } } } },
      },
    });
    // A mutation that only adds: not destructive, and not idempotent (a repeat adds another).
    expect(addCat).toMatchObject({
      description: 'Adds a cat (category 7).',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    });
    expect(frontPage?.annotations).toEqual({ title: 'Front page', readOnlyHint: true, openWorldHint: false });
    // The document's own descriptions (GraphQL's `"…"` on the operation and its variables) and its @mcpTool.
    const [described, undo] = tools.slice(3);
    expect(described).toMatchObject({
      title: 'Pets by status',
      description: "Pets of one status, newest client's view.",
      annotations: { title: 'Pets by status', readOnlyHint: true },
      inputSchema: { properties: { n: { type: 'integer', minimum: 1, maximum: 100, default: 2, description: 'How many to show' } } },
    });
    // Cancelling removes (destructive, idempotent); the manifest's author overrode one hint and kept the other.
    expect(undo?.annotations).toEqual({
      title: 'Undo',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    // Every schema is valid JSON Schema 2020-12, as a client compiles it.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(() => ajv.compile(tool.outputSchema), tool.name).not.toThrow();
    }
  });

  it('runs each tool as its trusted document, where production runs nothing else, with the same answers and limits', async ({
    makeApp,
    tmp,
  }) => {
    const t = await manifestApp(makeApp, tmp);
    const text = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: { query: DOCUMENTS.frontPage },
    });
    expect(text.json().errors[0].extensions.code).toBe('TRUSTED_DOCUMENTS_ONLY');
    const added = await callTool(t, 'AddCat', { name: 'Tom' });
    expect(added.data).toEqual({ createPet: { id: '1', name: 'Tom', categoryId: 7 } });
    const byId = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: { documentId: `sha256:${idOf(DOCUMENTS.frontPage)}` },
    });
    expect((await callTool(t, 'FrontPage')).data).toEqual(byId.json().data);
    expect((await callTool(t, 'PetName', { id: '1' })).data).toEqual({ pet: { label: 'Tom', __typename: 'Pet' } });
    // The cost limit, as GraphQL applies it to the same document.
    expect((await callTool(t, 'Heavy')).failure?.code).toBe('QUERY_TOO_COMPLEX');
    // A read-only credential is refused the write it is not listed (mount-mcp.test.ts), before anything runs.
    const reader = { authorization: `Bearer ${(await createApiKey(t.db, 'reader', { scopes: ['petstore:read'] })).key}` };
    expect((await callTool(t, 'AddCat', { name: 'Nope' }, { headers: reader })).res.statusCode).toBe(403);
    expect(await t.count('pets')).toBe(1);
  });
});
