import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '../helpers/fixtures.ts';

const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

type Operation = Record<string, unknown> & { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> };
let doc: {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

it.override('appEnv', { PRODUCTION_BASE_URL: 'https://prod.example.test/v1', STAGING_BASE_URL: 'https://staging.example.test/v1' });
it.beforeAll(async ({ t }) => {
  const res = await t.app.inject({ url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});

describe('GET /v1/openapi.json (no key needed)', () => {
  it('is OpenAPI 3.x with this server, production and staging from config', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.servers.map((s) => s.url)).toEqual(['/v1', 'https://prod.example.test/v1', 'https://staging.example.test/v1']);
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(doc.components.schemas?.Error).toBeDefined();
  });

  it('is version 1.0.0 of the interface, as the contract has it, and names the server release that serves it', () => {
    const { version } = JSON.parse(readFileSync(join(fileURLToPath(new URL('../..', import.meta.url)), 'package.json'), 'utf8')) as {
      version: string;
    };
    const info = (doc as unknown as { info: { version: string; description: string } }).info;
    expect(info.version).toBe('1.0.0');
    expect(info.description).toContain(`Version 1.0.0 is this interface's; it is served by Petstore Gateway ${version}`);
  });

  it('lists only this server when no production or staging address is configured', async ({ makeApp }) => {
    const bare = await makeApp();
    const servers = (await bare.app.inject({ url: '/v1/openapi.json' })).json().servers as { url: string }[];
    expect(servers.map((server) => server.url)).toEqual(['/v1']);
  });

  it('has one address: /v1/docs/json sends clients there (308), /v1/docs/yaml is 404 saying where it is', async ({ t }) => {
    const json = await t.app.inject({ url: '/v1/docs/json' });
    expect([json.statusCode, json.headers.location]).toEqual([308, '/v1/openapi.json']);
    const yaml = await t.app.inject({ url: '/v1/docs/yaml' });
    expect(yaml.statusCode).toBe(404);
    expect(yaml.json().message).toMatch(/The OpenAPI document is at \/v1\/openapi\.json\.$/);
  });

  it('declares a tag only where it has operations: "accounts" with sign-up open, not without', async ({ makeApp }) => {
    const tagsOf = (document: { tags: { name: string }[] }) => document.tags.map((tag) => tag.name);
    const open = await makeApp({ SIGNUP: 'open' });
    expect(tagsOf((await open.app.inject({ url: '/v1/openapi.json' })).json())).toContain('accounts');
    expect(tagsOf(doc as unknown as { tags: { name: string }[] })).not.toContain('accounts');
  });

  it('describes your own keys: createKey, listKeys, revokeKey, the secret only in the 201', () => {
    expect(doc.paths['/keys']?.post?.operationId).toBe('createKey');
    expect(doc.paths['/keys']?.get?.operationId).toBe('listKeys');
    expect(doc.paths['/keys/{keyId}']?.delete?.operationId).toBe('revokeKey');
    expect(doc.paths['/keys']?.post?.tags).toEqual(['keys']);
    expect(doc.components.schemas?.NewApiKeyWithSecret).toMatchObject({ required: expect.arrayContaining(['key']) });
    expect(doc.components.schemas?.ApiKey).not.toHaveProperty('properties.key');
    expect(Object.keys(doc.paths['/keys']?.post?.responses ?? {}).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '409',
      '413',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(doc.paths['/keys/{keyId}']?.delete?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '429',
      '500',
      '503',
    ]);
  });

  it('describes the contract operations with the names of the contract', () => {
    expect(doc.paths['/pets']?.get?.operationId).toBe('listPets');
    expect(doc.paths['/pets']?.post?.operationId).toBe('createPet');
    expect(doc.paths['/pets/{petId}']?.get?.operationId).toBe('getPet');
    expect(doc.paths['/pets']?.get?.parameters?.map((p) => p.name).sort()).toEqual(['cursor', 'limit', 'status']);
    expect(Object.keys(doc.paths['/pets']?.post?.responses ?? {}).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '409',
      '413',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(doc.paths['/pets/{petId}']?.get?.responses ?? {}).sort()).toEqual([
      '200',
      '304',
      '400',
      '401',
      '403',
      '404',
      '429',
      '500',
      '503',
    ]);
  });

  it('marks getPet deprecated and store orders experimental', () => {
    expect(doc.paths['/pets/{petId}']?.get?.deprecated).toBe(true);
    expect(doc.paths['/store/orders']?.get?.['x-stability']).toBe('experimental');
  });

  it('puts the message quickstart on its own base address', () => {
    const send = doc.paths['/messages']?.post;
    expect(send?.operationId).toBe('sendMessage');
    expect(send?.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('generates the documented body from the schema that validates', async ({ t }) => {
    const body = (doc.paths['/pets']?.post?.requestBody as { content: Record<string, { schema: Record<string, unknown> }> }).content[
      'application/json'
    ]?.schema;
    expect(body).toEqual({ $ref: '#/components/schemas/NewPet' });
    expect(doc.components.schemas?.NewPet).toMatchObject({ additionalProperties: false, required: ['name', 'categoryId'] });
    const res = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'A', categoryId: 1, extra: true } });
    expect(res.statusCode).toBe(400);
  });
});

describe('the document, for client generators', () => {
  const media = (operation: Operation | undefined, status: string) =>
    (operation?.responses[status] as { content: Record<string, { schema: unknown; examples?: Record<string, { value: unknown }> }> })
      .content['application/json'];

  it('names every record: Pet, NewPet, Order, NewOrder, OrderStatusChange, Message, NewMessage, ApiKey…, Error, and refers to them', () => {
    expect(Object.keys(doc.components.schemas ?? {}).sort()).toEqual([
      'ApiKey',
      'Error',
      'Message',
      'NewApiKey',
      'NewApiKeyWithSecret',
      'NewMessage',
      'NewOrder',
      'NewPet',
      'Order',
      'OrderStatusChange',
      'Pet',
    ]);
    expect(media(doc.paths['/pets']?.get, '200')?.schema).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Pet' } });
    expect(media(doc.paths['/store/orders']?.post, '201')?.schema).toEqual({ $ref: '#/components/schemas/Order' });
    expect(media(doc.paths['/messages']?.post, '201')?.schema).toEqual({ $ref: '#/components/schemas/Message' });
    const requestBody = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.requestBody as { content: Record<string, { schema: unknown }> }).content['application/json']?.schema;
    expect(requestBody('/store/orders', 'post')).toEqual({ $ref: '#/components/schemas/NewOrder' });
    expect(requestBody('/store/orders/{orderId}', 'patch')).toEqual({ $ref: '#/components/schemas/OrderStatusChange' });
    expect(requestBody('/messages', 'post')).toEqual({ $ref: '#/components/schemas/NewMessage' });
  });

  it('shows each error response with an example of each message its codes are sent with', () => {
    const codes = (path: string, method: string, status: string) => Object.keys(media(doc.paths[path]?.[method], status)?.examples ?? {});
    expect(codes('/pets', 'get', '401')).toEqual([
      'UNAUTHORIZED',
      'UNAUTHORIZED.notBearer',
      'UNAUTHORIZED.invalidKey',
      'UNAUTHORIZED.accountDisabled',
      'UNAUTHORIZED.tokenInvalid',
      'UNAUTHORIZED.tokenExpired',
      'UNAUTHORIZED.tokenNotYetValid',
      'UNAUTHORIZED.tokenAudience',
      'UNAUTHORIZED.tokenIssuer',
      'UNAUTHORIZED.tokenNoSubject',
      'UNAUTHORIZED.tokenBadSubject',
      'UNAUTHORIZED.tokenNoAccount',
      'UNAUTHORIZED.tokenAccountDisabled',
    ]);
    expect(codes('/pets', 'get', '403')).toEqual(['INSUFFICIENT_SCOPE.missing']);
    expect(codes('/pets', 'get', '503')).toEqual(expect.arrayContaining(['ISSUER_UNAVAILABLE.unreachable']));
    expect(codes('/pets', 'get', '400')).toEqual(
      expect.arrayContaining(['VALIDATION_FAILED', 'VALIDATION_FAILED.idempotencyKeyForm', 'INVALID_CURSOR']),
    );
    expect(codes('/pets', 'get', '400').filter((name) => name.includes('graphql'))).toEqual([]);
    expect(codes('/pets/{petId}', 'get', '404')).toEqual(['PET_NOT_FOUND.byId']);
    expect(codes('/store/orders', 'post', '409')).toEqual(['PET_NOT_AVAILABLE.notAvailable', 'IDEMPOTENCY_KEY_IN_USE']);
    expect(codes('/messages/{id}', 'get', '404')).toEqual(['MESSAGE_NOT_FOUND.byId']);
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          const examples = media(operation, status)?.examples ?? {};
          expect(Object.keys(examples).length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const [name, { value }] of Object.entries(examples))
            expect(value, `${method} ${path} ${status}`).toEqual({
              code: name.split('.')[0],
              message: expect.any(String),
              status: Number(status),
            });
          expect(response).toMatchObject({ description: expect.stringContaining('Error body') });
        }
      }
    }
  });

  it('shows the words the server says: each way a key is refused, and a pet that is not there, as the examples have them', async ({
    t,
  }) => {
    const examples = (path: string, method: string, status: string) =>
      Object.values(media(doc.paths[path]?.[method], status)?.examples ?? {}).map(({ value }) => (value as { message: string }).message);
    const said = async (headers: Record<string, string>) =>
      (await t.app.inject({ url: '/v1/pets', headers })).json<{ message: string }>().message;
    const refusals = [await said({}), await said({ authorization: 'Basic abc' }), await said({ authorization: 'Bearer psk_nope' })];
    expect(examples('/pets', 'get', '401').slice(0, 3)).toEqual(refusals);
    const missing = await t.call({ url: '/v1/pets/42' });
    expect(examples('/pets/{petId}', 'get', '404')).toEqual([missing.json<{ message: string }>().message]);
  });

  it('leaves GraphQL out (its schema describes it) and marks the store orders list without a test panel', () => {
    expect(Object.keys(doc.paths).filter((p) => p.includes('graphql'))).toEqual([]);
    expect(doc.paths['/store/orders']?.get?.['x-try-it-out']).toBe(false);
    expect(doc.paths['/pets']?.get?.['x-try-it-out']).toBeUndefined();
  });

  it('passes Redocly lint with its recommended rules: no errors, and only the warnings docs/rest-api.md explains', ({ tmp }) => {
    const file = join(tmp, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const lint = spawnSync(process.execPath, [REDOCLY, 'lint', file, '--extends', 'recommended', '--format', 'json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const report = JSON.parse(lint.stdout) as { problems: { ruleId: string; severity: string; location: { pointer: string }[] }[] };
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
    const warnings = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`).sort();
    expect(warnings).toEqual([
      'info-license #/info',
      'operation-4xx-response #/paths/~1healthz/get/responses',
      'operation-4xx-response #/paths/~1readyz/get/responses',
    ]);
  });
});

describe('GET /v1/docs', () => {
  it('serves Swagger UI from local assets, no key needed', async ({ t }) => {
    const page = await t.app.inject({ url: '/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).not.toMatch(/https?:\/\/(unpkg|cdn|cdnjs)/);
    const script = /src="([^"]*swagger-ui-bundle\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = await t.app.inject({ url: new URL(script ?? '', 'http://x/v1/docs/').pathname });
    expect(asset.statusCode).toBe(200);
    expect(Number(asset.headers['content-length'] ?? asset.body.length)).toBeGreaterThan(100_000);
  });
});
