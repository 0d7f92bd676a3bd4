import { createApiKey } from '../../src/services/api-keys/index.ts';
import type { Scope } from '../../src/services/access-tokens/scopes.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { LOCAL_AUDIENCE, startLocalIssuer } from '../helpers/local-issuer.ts';
import { callTool, DEFAULT_TOOLS, listen, mcp, READ_TOOLS } from '../helpers/mcp.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { defaultDocuments } from '../../src/mcp/default-documents.ts';
import { petstoreSchema } from '../../src/graphql/petstore-schema.ts';

// The MCP face at /mcp, through its wire format: one JSON-RPC message per POST, for a 2025
// client (MCP-Protocol-Version: 2025-11-25) and a 2026-07-28 one (the `_meta` envelope and the
// Mcp-Method/Mcp-Name headers). The official SDK clients are in sdk-clients.test.ts.

let accounts = 0;
const keyFor = async (t: TestApp, scopes: Scope[] | null = null) => ({
  authorization: `Bearer ${(await createApiKey(t.db, `mcp-${++accounts}`, { scopes })).key}`,
});

const METADATA = '/.well-known/oauth-protected-resource/mcp';

describe('the protocol', () => {
  it('initializes a 2025 client on the revision it asks for, or the newest 2025 one', async ({ t }) => {
    const asked = async (protocolVersion: string) =>
      (await mcp(t, 'initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'x', version: '1' } })).body.result;
    expect(await asked('2025-06-18')).toMatchObject({
      protocolVersion: '2025-06-18',
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: 'petstore-gateway', title: 'Petstore Gateway', version: expect.any(String) },
      instructions: expect.stringContaining('idempotency-key'),
    });
    expect((await asked('2024-11-05'))?.protocolVersion).toBe('2025-11-25');
  });

  it('answers server/discover for 2026-07-28, stamping each result with its type and the server', async ({ t }) => {
    const { res, body } = await mcp(t, 'server/discover', {}, { era: 'modern' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(body.result).toMatchObject({
      supportedVersions: ['2026-07-28'],
      // A 2026-07-28 client hears of a reloaded tool list, and listens to the API's subscriptions, over subscriptions/listen.
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: false } },
      resultType: 'complete',
      ttlMs: 60000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'petstore-gateway' } },
    });
    const listed = (await mcp(t, 'tools/list', {}, { era: 'modern' })).body.result;
    // The tool list is the caller's own (it shows what the caller's scopes grant).
    expect(listed).toMatchObject({ resultType: 'complete', ttlMs: 60000, cacheScope: 'private' });
  });

  it('answers ping (2025) and accepts notifications with 202 and no body', async ({ t }) => {
    expect((await mcp(t, 'ping', {}, { id: 'p-1' })).body).toEqual({ jsonrpc: '2.0', id: 'p-1', result: {} });
    const notice = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...t.auth, 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      payload: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    expect(notice.statusCode).toBe(202);
    expect(notice.body).toBe('');
  });

  it('refuses an unknown method (2025: in the answer; 2026-07-28: 404), an unknown tool and bad tool params with JSON-RPC errors', async ({
    t,
  }) => {
    const legacy = await mcp(t, 'prompts/list');
    expect(legacy.res.statusCode).toBe(200);
    expect(legacy.body.error).toMatchObject({ code: -32601, data: { code: 'METHOD_NOT_FOUND', status: 404 } });
    const modern = await mcp(t, 'ping', {}, { era: 'modern' });
    expect(modern.res.statusCode).toBe(404);
    expect(modern.body.error?.code).toBe(-32601);
    const tool = await mcp(t, 'tools/call', { name: 'drop_tables', arguments: {} });
    expect(tool.res.statusCode).toBe(200);
    expect(tool.body.error).toMatchObject({
      code: -32602,
      message: "No tool is named 'drop_tables': tools/list names those this server offers.",
      data: { code: 'TOOL_NOT_FOUND' },
    });
    const params = await mcp(t, 'tools/call', { name: 'list_pets', arguments: [1] });
    expect(params.body.error).toMatchObject({ code: -32602, data: { code: 'VALIDATION_FAILED' } });
  });

  it('checks the 2026-07-28 headers against the body, and the revision', async ({ t }) => {
    const named = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        ...t.auth,
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'get_pet',
      },
      payload: {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'add_pet',
          arguments: { name: 'Sneaky', categoryId: 1 },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
    });
    expect(named.statusCode).toBe(400);
    expect(named.json()).toMatchObject({ id: 7, error: { code: -32020, data: { code: 'VALIDATION_FAILED' } } });
    expect(await t.count('pets')).toBe(0);
    const disagreeing = await mcp(t, 'tools/list', {}, { era: 'modern', headers: { ...t.auth, 'mcp-method': 'tools/call' } });
    expect(disagreeing.res.statusCode).toBe(400);
    expect(disagreeing.body.error?.message).toContain('Mcp-Method');
    const later = await mcp(
      t,
      'tools/list',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } },
      {
        era: 'modern',
        headers: { ...t.auth, 'mcp-protocol-version': '2027-01-01' },
      },
    );
    expect(later.res.statusCode).toBe(400);
    expect(later.body.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2027-01-01' } });
    const old = await mcp(t, 'tools/list', {}, { headers: { ...t.auth, 'mcp-protocol-version': '2024-11-05' } });
    expect(old.res.statusCode).toBe(400);
    expect(old.body.error?.data?.code).toBe('VALIDATION_FAILED');
  });

  it('refuses what is no single JSON-RPC request: a batch, another shape, bad JSON, too deep, too big', async ({ t }) => {
    const post = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...t.auth, 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
        payload,
      });
    const batch = await post('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    expect(batch.statusCode).toBe(400);
    expect(batch.json()).toMatchObject({ id: null, error: { code: -32600, data: { code: 'VALIDATION_FAILED' } } });
    expect((await post('{"jsonrpc":"1.0","id":1,"method":"ping"}')).json()).toMatchObject({ error: { code: -32600 } });
    const broken = await post('{"jsonrpc":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ id: null, error: { code: -32700, data: { code: 'INVALID_JSON' } } });
    const deep = await post(`{"jsonrpc":"2.0","id":1,"method":"ping","params":${'['.repeat(100)}${']'.repeat(100)}}`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error.data.code).toBe('VALIDATION_FAILED');
    const big = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'send_message', arguments: { message: 'x'.repeat(70_000) } },
      }),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json().error.data.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('is stateless: GET and DELETE are 405 (no stream, no session), and it answers JSON only', async ({ t }) => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/mcp', headers: { ...t.auth, accept: 'text/event-stream' } });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.json().error.data.code).toBe('METHOD_NOT_ALLOWED');
    }
    const html = await mcp(t, 'ping', {}, { headers: { ...t.auth, accept: 'text/html' } });
    expect(html.res.statusCode).toBe(406);
    expect(html.body.error?.data?.code).toBe('NOT_ACCEPTABLE');
  });

  it('is absent with MCP=false', async ({ makeApp }) => {
    const t = await makeApp({ MCP: 'false' });
    expect((await mcp(t, 'ping')).res.statusCode).toBe(404);
    expect((await t.app.inject({ url: METADATA })).statusCode).toBe(404);
  });
});

describe('credentials, as an OAuth resource checks them', () => {
  it('answers a request without a credential 401, naming its RFC 9728 metadata, which lists this resource', async ({ t }) => {
    const { res, body } = await mcp(
      t,
      'initialize',
      { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      { headers: {} },
    );
    expect(res.statusCode).toBe(401);
    // The scope to ask for: where a session begins, what its tools need (never petstore:keys); a tool call's, its own (below).
    expect(res.headers['www-authenticate']).toBe(
      `Bearer realm="petstore", scope="petstore:read petstore:write", resource_metadata="http://localhost:80${METADATA}"`,
    );
    const read = await callTool(t, 'list_pets', {}, { headers: {} });
    expect(read.res.headers['www-authenticate']).toMatch(/^Bearer realm="petstore", scope="petstore:read", resource_metadata=/);
    const write = await callTool(t, 'add_pet', { name: 'Rex', categoryId: 1 }, { headers: {} });
    expect(write.res.headers['www-authenticate']).toMatch(/^Bearer realm="petstore", scope="petstore:write", resource_metadata=/);
    expect(body.error).toMatchObject({
      code: -32000,
      data: { code: 'UNAUTHORIZED', message: 'Missing API key: send Authorization: Bearer <API_KEY>.' },
    });
    const metadata = await t.app.inject({ url: METADATA });
    expect(metadata.json()).toEqual({
      resource: 'http://localhost:80/mcp',
      // What the tools need, never petstore:keys: an agent asking for every scope listed gets no key-minting power.
      scopes_supported: ['petstore:read', 'petstore:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'Petstore Gateway (MCP)',
    });
    const revoked = await mcp(t, 'ping', {}, { headers: { authorization: `Bearer psk_${'0'.repeat(40)}` } });
    expect(revoked.res.statusCode).toBe(401);
    expect(revoked.body.error?.data?.message).toBe('The API key is invalid or has been revoked.');
  });

  it('never lets a client’s Host name the resource where a shared cache could keep it', async ({ t, makeApp }) => {
    const evil = { host: 'attacker.example' };
    // Without PUBLIC_BASE_URL the resource is the request's own origin: told to that client alone, kept by no cache.
    const reflected = await t.app.inject({ url: METADATA, headers: evil });
    expect(reflected.json()).toMatchObject({ resource: 'http://attacker.example/mcp' });
    expect(reflected.headers['cache-control']).toBe('no-store');
    const challenged = await mcp(t, 'tools/list', {}, { headers: evil });
    expect(challenged.res.statusCode).toBe(401);
    expect(challenged.res.headers['cache-control']).toBe('no-store');
    // With it, the resource is the server's whatever the Host says, and may be kept.
    const pinned = await makeApp({ PUBLIC_BASE_URL: 'https://petstore.example/v1' });
    const metadata = await pinned.app.inject({ url: METADATA, headers: evil });
    expect(metadata.json()).toMatchObject({ resource: 'https://petstore.example/mcp' });
    expect(metadata.headers['cache-control']).toBe('public, max-age=300');
    expect((await mcp(pinned, 'tools/list', {}, { headers: evil })).res.headers['www-authenticate']).toBe(
      `Bearer realm="petstore", scope="petstore:read petstore:write", resource_metadata="https://petstore.example${METADATA}"`,
    );
  });

  it('lists a caller the tools its scopes grant, an access token’s as a key’s, on both revisions', async ({ t, makeApp }) => {
    const names = async (app: typeof t, headers: Record<string, string>, era: 'legacy' | 'modern' = 'legacy') =>
      ((await mcp(app, 'tools/list', {}, { headers, era })).body.result?.tools as { name: string }[]).map((tool) => tool.name);
    const READS = DEFAULT_TOOLS.filter((name) => READ_TOOLS.has(name));
    const ALL = DEFAULT_TOOLS;
    for (const era of ['legacy', 'modern'] as const) {
      expect(await names(t, await keyFor(t, ['petstore:read']), era)).toEqual(READS);
      expect(await names(t, await keyFor(t, ['petstore:read', 'petstore:write']), era)).toEqual(ALL);
      // A write answers its own record, which needs no read scope (docs/mcp.md): write alone lists the writes.
      expect(await names(t, await keyFor(t, ['petstore:write']), era)).toEqual(ALL.filter((name) => !READS.includes(name)));
      expect(await names(t, await keyFor(t, ['petstore:keys']), era)).toEqual([]);
      expect(await names(t, t.auth, era)).toEqual(ALL);
    }
    const issuer = await startLocalIssuer();
    try {
      const tokens = await makeApp({ OIDC_ISSUERS: issuer.url, OIDC_AUDIENCE: LOCAL_AUDIENCE, OIDC_NEW_SUBJECTS: 'create' });
      const bearer = async (scope: string) => ({
        authorization: `Bearer ${await issuer.token('agent-s', { aud: LOCAL_AUDIENCE, scope })}`,
      });
      await expect
        .poll(async () => (await mcp(tokens, 'tools/list', {}, { headers: await bearer('petstore:read') })).res.statusCode)
        .toBe(200);
      expect(await names(tokens, await bearer('petstore:read'))).toEqual(READS);
      expect(await names(tokens, await bearer('petstore:read petstore:write'))).toEqual(ALL);
    } finally {
      await issuer.close();
    }
  });

  it('needs each tool’s scope: a read-only key reads, and a write is 403 insufficient_scope, nothing stored', async ({ t }) => {
    const reader = await keyFor(t, ['petstore:read']);
    expect((await callTool(t, 'list_pets', {}, { headers: reader })).data).toEqual({
      pets: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
    });
    for (const era of ['legacy', 'modern'] as const) {
      const { res, body } = await callTool(t, 'add_pet', { name: 'Nope', categoryId: 1 }, { headers: reader, era });
      expect(res.statusCode).toBe(403);
      expect(res.headers['www-authenticate']).toBe(
        `Bearer realm="petstore", error="insufficient_scope", scope="petstore:write", resource_metadata="http://localhost:80${METADATA}"`,
      );
      expect(body.error?.data).toEqual({
        code: 'INSUFFICIENT_SCOPE',
        message: "This operation needs the scope 'petstore:write', which the credential sent does not have.",
        status: 403,
      });
    }
    expect(await t.count('pets')).toBe(0);
  });

  it('takes access tokens for this audience (RFC 8707), and refuses one issued for another', async ({ makeApp }) => {
    const issuer = await startLocalIssuer();
    try {
      const t = await makeApp({ OIDC_ISSUERS: issuer.url, OIDC_AUDIENCE: LOCAL_AUDIENCE, OIDC_NEW_SUBJECTS: 'create' });
      const foreign = { authorization: `Bearer ${await issuer.token('agent-1', { aud: 'https://elsewhere.example/mcp' })}` };
      // Until the server has discovered the issuer its tokens are 503 (ISSUER_UNAVAILABLE), as on the other faces.
      await expect.poll(async () => (await callTool(t, 'list_pets', {}, { headers: foreign })).res.statusCode).toBe(401);
      const ours = { authorization: `Bearer ${await issuer.token('agent-1')}` };
      expect((await callTool(t, 'list_pets', {}, { headers: ours })).data).toMatchObject({ pets: { nodes: [] } });
      const { res, body } = await callTool(t, 'list_pets', {}, { headers: foreign });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(
        /^Bearer realm="petstore", error="invalid_token", error_description="[^"]+", scope="petstore:read", resource_metadata="http:\/\/localhost:80\/\.well-known\/oauth-protected-resource\/mcp"$/,
      );
      expect(body.error?.data?.message).toContain(LOCAL_AUDIENCE);
      // With OpenID Connect, the metadata names its issuers, and the resource tokens must name.
      expect((await t.app.inject({ url: METADATA })).json()).toMatchObject({
        resource: LOCAL_AUDIENCE,
        authorization_servers: [issuer.url],
      });
    } finally {
      await issuer.close();
    }
  });

  it('refuses a page from an origin not allowed (DNS rebinding), before anything runs', async ({ makeApp }) => {
    const t = await makeApp({ CORS_ORIGINS: 'https://agents.example' });
    const from = (origin: string, host = 'petstore.example') =>
      callTool(t, 'add_pet', { name: 'Rebound', categoryId: 1 }, { headers: { ...t.auth, origin, host } });
    const rebound = await from('http://evil.example');
    expect(rebound.res.statusCode).toBe(403);
    expect(rebound.body.error?.data).toEqual({
      code: 'FORBIDDEN',
      message:
        "A page from http://evil.example may not call the MCP endpoint (DNS-rebinding protection): an origin must be listed in CORS_ORIGINS, or be this server's own.",
      status: 403,
    });
    expect((await from('http://localhost:3000')).res.statusCode).toBe(403);
    expect(await t.count('pets')).toBe(0);
    expect((await from('https://agents.example')).data).toMatchObject({ createPet: { name: 'Rebound' } });
    expect((await from('http://localhost:5173', 'localhost:3000')).data).toMatchObject({ createPet: { name: 'Rebound' } });
    expect((await callTool(t, 'list_pets')).res.statusCode).toBe(200);
  });
});

describe('tool calls', () => {
  it('check arguments against the input schema before anything runs, in the words the other faces use', async ({ t }) => {
    const typed = await callTool(t, 'list_pets', { first: 'two' });
    expect(typed.res.statusCode).toBe(200);
    expect(typed.body.result?.isError).toBe(true);
    expect(typed.failure).toEqual({ code: 'VALIDATION_FAILED', message: "Argument 'first' must be an integer.", status: 400 });
    expect((await callTool(t, 'get_pet', {})).failure?.message).toBe("Argument 'id' is required.");
    expect((await callTool(t, 'get_pet', { id: '1', extra: true })).failure?.message).toBe("Argument 'extra' is not allowed.");
    // A rule of the service: the same words as GraphQL's for the same operation.
    const tool = await callTool(t, 'list_pets', { first: 500 });
    const same = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: { query: defaultDocuments(petstoreSchema()), operationName: 'list_pets', variables: { first: 500 } },
    });
    expect(tool.failure?.message).toBe(same.json().errors[0].message);
    expect(tool.failure?.code).toBe(same.json().errors[0].extensions.code);
  });

  it('leave nothing half-stored: a write the service refuses is a failed result, and nothing is kept', async ({ t }) => {
    const refused = await callTool(t, 'add_pet', { name: '   ', categoryId: 1 });
    expect(refused.failure).toEqual({ code: 'VALIDATION_FAILED', message: expect.stringContaining("'name'"), status: 400 });
    const placed = await callTool(t, 'place_order', { petId: '999' });
    expect(placed.failure?.code).toBe('PET_NOT_FOUND');
    expect(await t.count('pets')).toBe(0);
    expect(await t.count('orders')).toBe(0);
  });

  it('store a write once for a retrying agent: the same _meta idempotency key replays the first result', async ({ t }) => {
    const key = { 'io.petstore/idempotency-key': 'agent-retry-1' };
    const first = await callTool(t, 'add_pet', { name: 'Once', categoryId: 2 }, { meta: key });
    const again = await callTool(t, 'add_pet', { name: 'Once', categoryId: 2 }, { meta: key, id: 'retry', era: 'modern' });
    expect(again.res.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe('retry');
    expect(again.data).toEqual(first.data);
    expect(await t.count('pets')).toBe(1);
    // Another call under the same key is refused, not replayed (the call's failed result, to its own id); a failed call leaves its key free.
    const other = await callTool(t, 'add_pet', { name: 'Twice', categoryId: 2 }, { meta: key, id: 'other' });
    expect(other.res.statusCode).toBe(200);
    expect(other.body.id).toBe('other');
    expect(other.failure?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const failedKey = { 'io.petstore/idempotency-key': 'agent-retry-2' };
    expect((await callTool(t, 'add_pet', { name: ' ', categoryId: 2 }, { meta: failedKey })).failure?.code).toBe('VALIDATION_FAILED');
    expect((await callTool(t, 'add_pet', { name: 'Fixed', categoryId: 2 }, { meta: failedKey })).data).toMatchObject({
      createPet: { name: 'Fixed' },
    });
    // The HTTP header works too; a key of the wrong form is refused as on REST.
    const header = { ...t.auth, 'idempotency-key': 'agent-retry-3' };
    await callTool(t, 'add_pet', { name: 'Header', categoryId: 2 }, { headers: header });
    expect((await callTool(t, 'add_pet', { name: 'Header', categoryId: 2 }, { headers: header })).res.headers['idempotent-replayed']).toBe(
      'true',
    );
    for (const wrong of ['has space', { a: 1 }, 42]) {
      const refused = await callTool(t, 'add_pet', { name: 'Bad', categoryId: 2 }, { meta: { 'io.petstore/idempotency-key': wrong } });
      expect(refused.failure?.code, JSON.stringify(wrong)).toBe('VALIDATION_FAILED');
    }
    expect(await t.count('pets')).toBe(3);
  });
});

describe('limits and records', () => {
  it('charges each call to the caller’s budget: once it is spent, a failed result for the call’s own id, with Retry-After', async ({
    makeApp,
  }) => {
    const t = await makeApp({ RATE_LIMIT_PER_MINUTE: '3' });
    expect((await callTool(t, 'list_pets')).res.statusCode).toBe(200);
    expect((await callTool(t, 'list_pets')).res.statusCode).toBe(200);
    expect((await mcp(t, 'tools/list')).res.statusCode).toBe(200);
    for (const era of ['legacy', 'modern'] as const) {
      const spent = await callTool(t, 'list_pets', {}, { era, id: `spent-${era}` });
      expect(spent.res.statusCode).toBe(200);
      expect(spent.body.id).toBe(`spent-${era}`);
      expect(Number(spent.res.headers['retry-after'])).toBeGreaterThan(0);
      expect(spent.failure).toEqual({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Rate limit of 3 per minute/), status: 429 });
    }
    // Any other method: a JSON-RPC error to its own id (no tool result to carry it), with its HTTP status.
    const listing = await mcp(t, 'tools/list', {}, { id: 'listing' });
    expect(listing.res.statusCode).toBe(429);
    expect(listing.body).toMatchObject({ id: 'listing', error: { data: { code: 'RATE_LIMITED', status: 429 } } });
    // Without a credential the address's own budget: refused before anything else, to the message's id.
    const keyless = await makeApp({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '1' });
    expect((await mcp(keyless, 'tools/list', {}, { headers: {} })).res.statusCode).toBe(401);
    const guessed = await mcp(keyless, 'tools/list', {}, { headers: {}, id: 'keyless' });
    expect(guessed.res.statusCode).toBe(429);
    expect(guessed.body).toMatchObject({ id: 'keyless', error: { data: { code: 'RATE_LIMITED' } } });
  });

  it('charges messages to the message quota, as sendMessage on GraphQL', async ({ makeApp }) => {
    const t = await makeApp({ MESSAGE_RATE_LIMIT_PER_MINUTE: '1' });
    expect((await callTool(t, 'send_message', { message: 'one' })).data).toMatchObject({
      sendMessage: { message: 'one', status: 'queued' },
    });
    expect((await callTool(t, 'send_message', { message: 'two' })).failure?.code).toBe('RATE_LIMITED');
    expect(await t.count('messages')).toBe(1);
  });

  it('has an access line naming the tool and the account, and metrics of its own face', async ({ makeApp }) => {
    const lines: string[] = [];
    const t = await makeApp({ LOG_LEVEL: 'info', METRICS_PORT: '0' }, { logStream: { write: (line) => void lines.push(line) } });
    lines.length = 0;
    await callTool(t, 'list_pets', { first: 1 });
    await callTool(t, 'get_pet', { id: '404' });
    const access = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
    expect(access).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/mcp',
        status: 200,
        operation: 'tools/call list_pets',
        accountId: expect.any(Number),
      }),
      expect.objectContaining({ operation: 'tools/call get_pet' }),
    ]);
    const text = await t.scrape();
    expect(text).toMatch(/^http_server_request_duration_seconds_count\{[^}]*http_route="\/mcp"[^}]*face="mcp"[^}]*\} 2$/m);
    expect(text).toMatch(
      /^mcp_server_operation_duration_seconds_count\{mcp_method_name="tools\/call",gen_ai_tool_name="list_pets",error_type=""\} 1$/m,
    );
    expect(text).toMatch(
      /^mcp_server_operation_duration_seconds_count\{mcp_method_name="tools\/call",gen_ai_tool_name="get_pet",error_type="PET_NOT_FOUND"\} 1$/m,
    );
    expect(text).toMatch(/^petstore_errors_total\{face="mcp",code="PET_NOT_FOUND"\} 1$/m);
  });

  it('observes a listen once, when it is acknowledged, never for as long as its client listens', async ({ makeApp }) => {
    const t = await makeApp({ METRICS_PORT: '0' });
    const listens = async () =>
      /^mcp_server_operation_duration_seconds_count\{mcp_method_name="subscriptions\/listen",gen_ai_tool_name="",error_type=""\} (\d+)$/m.exec(
        await t.scrape(),
      )?.[1] ?? '0';
    const listening = await listen(t, t.auth, { resourceSubscriptions: ['petstore://subscriptions/pet_created'] });
    await expect.poll(() => listening.messages.length).toBe(1);
    // Counted while it is still held, with its time to acknowledge.
    await expect.poll(listens).toBe('1');
    await listening.cancel();
    await expect.poll(async () => /^petstore_subscriptions_open (\d+)$/m.exec(await t.scrape())?.[1]).toBe('0');
    expect(await listens()).toBe('1');
  });
});
