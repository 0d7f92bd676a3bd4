import { createApiKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { connectSdk, mcp, SDK_CLIENTS } from '../helpers/mcp.ts';

// What an agent may read of the API itself: the GraphQL schema and the REST contract, as MCP
// resources, for any valid credential, read by the official SDK clients.

describe.for(SDK_CLIENTS)('resources with %s', (which) => {
  it('lists the schema and the OpenAPI document, each read as the HTTP routes serve it', async ({ t }) => {
    const client = await connectSdk(which, `${await t.listen()}/mcp`, t.auth);
    try {
      const { resources } = await client.listResources();
      expect(resources.map(({ uri, name, mimeType }) => ({ uri, name, mimeType }))).toEqual([
        { uri: 'petstore://schema.graphql', name: 'schema.graphql', mimeType: 'application/graphql' },
        { uri: 'petstore://openapi.json', name: 'openapi.json', mimeType: 'application/json' },
      ]);
      const sdl = await client.readResource({ uri: 'petstore://schema.graphql' });
      expect(sdl.contents).toEqual([
        {
          uri: 'petstore://schema.graphql',
          mimeType: 'application/graphql',
          text: (await t.call({ url: '/graphql/schema.graphql' })).body,
        },
      ]);
      const openApi = await client.readResource({ uri: 'petstore://openapi.json' });
      expect(JSON.parse(openApi.contents[0]?.text ?? '')).toEqual((await t.app.inject({ url: '/v1/openapi.json' })).json());
      await expect(client.readResource({ uri: 'petstore://nothing' })).rejects.toThrow(/No resource 'petstore:\/\/nothing'/);
    } finally {
      await client.close();
    }
  });
});

describe('resources over JSON-RPC', () => {
  it('need a credential, as every method does, and name a missing one -32602 RESOURCE_NOT_FOUND', async ({ t }) => {
    expect((await mcp(t, 'resources/list', {}, { headers: {} })).res.statusCode).toBe(401);
    const reader = { authorization: `Bearer ${(await createApiKey(t.db, 'reads-only', { scopes: ['petstore:read'] })).key}` };
    const listed = await mcp(t, 'resources/list', {}, { headers: reader, era: 'modern' });
    expect((listed.body.result?.resources as unknown[]).length).toBe(2);
    const missing = await mcp(t, 'resources/read', { uri: 'file:///etc/passwd' });
    expect(missing.res.statusCode).toBe(200);
    expect(missing.body.error).toEqual({
      code: -32602,
      message: "No resource 'file:///etc/passwd': resources/list names those this server offers.",
      data: {
        code: 'RESOURCE_NOT_FOUND',
        message: "No resource 'file:///etc/passwd': resources/list names those this server offers.",
        status: 404,
      },
    });
    const init = await mcp(t, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } });
    expect(init.body.result?.capabilities).toEqual({ tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } });
  });
});
