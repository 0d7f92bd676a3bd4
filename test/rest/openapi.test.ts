import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

let t: TestApp;
type Operation = Record<string, unknown> & { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> };
let doc: { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  t = await startTestApp({ PRODUCTION_BASE_URL: 'https://prod.example.test/v1', STAGING_BASE_URL: 'https://staging.example.test/v1' });
  const res = await t.app.inject({ url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t.close());

describe('GET /v1/openapi.json (no key needed)', () => {
  it('is OpenAPI 3.x with this server, production and staging from config', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.servers.map((s) => s.url)).toEqual(['/v1', 'https://prod.example.test/v1', 'https://staging.example.test/v1']);
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(doc.components.schemas?.Error).toBeDefined();
  });

  it('describes the contract operations with the names of the contract', () => {
    expect(doc.paths['/pets']?.get?.operationId).toBe('listPets');
    expect(doc.paths['/pets']?.post?.operationId).toBe('createPet');
    expect(doc.paths['/pets/{petId}']?.get?.operationId).toBe('getPet');
    expect(doc.paths['/pets']?.get?.parameters?.map((p) => p.name).sort()).toEqual(['cursor', 'limit', 'status']);
    expect(Object.keys(doc.paths['/pets']?.post?.responses ?? {}).sort()).toEqual(['201', '400', '401']);
    expect(Object.keys(doc.paths['/pets/{petId}']?.get?.responses ?? {}).sort()).toEqual(['200', '400', '401', '404']);
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

  it('generates the documented body from the schema that validates', async () => {
    const body = (doc.paths['/pets']?.post?.requestBody as { content: Record<string, { schema: Record<string, unknown> }> }).content[
      'application/json'
    ]?.schema;
    expect(body).toMatchObject({ additionalProperties: false, required: ['name', 'categoryId'] });
    const res = await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'A', categoryId: 1, extra: true } });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /v1/docs', () => {
  it('serves Swagger UI from local assets, no key needed', async () => {
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
