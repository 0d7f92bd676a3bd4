import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { addFormats } from '../../src/services/validation/formats.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { holdWriteLock } from '../helpers/test-database.ts';
import type { TestApp } from '../helpers/test-app.ts';

type Json = Record<string, unknown>;
interface Operation {
  servers?: { url: string }[];
  parameters?: ({ name: string; in: string } | { $ref: string })[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Json }> }>;
}
interface Document extends Json {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { parameters?: Record<string, { name: string; in: string }> };
}

/** Headers a client reads and acts on: each one an answer carries must be declared for its status. */
const API_HEADERS = [
  'link',
  'etag',
  'vary',
  'location',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'www-authenticate',
  'deprecation',
  'sunset',
  'x-api-stability',
  'idempotent-replayed',
  'cache-control',
  'x-request-id',
];

interface Exchange {
  request: InjectOptions & { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string };
  response: LightMyRequestResponse;
}

/** Every answer, checked against the document: a declared operation and status, the body's schema, each header a client reads. */
function conformanceProblems(doc: Document, exchanges: Exchange[]): string[] {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema(doc, 'openapi');
  const templates = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const base = (operation.servers?.[0]?.url ?? doc.servers[0]?.url ?? '').replace(/\/$/, '');
      return { path, method, operation, pattern: new RegExp(`^${base}${path.replace(/\{[^}]+\}/g, '[^/]+')}$`) };
    }),
  );
  const problems: string[] = [];
  for (const { request, response } of exchanges) {
    const label = `${request.method} ${request.url} → ${response.statusCode}`;
    const pathname = request.url.split('?')[0] ?? '';
    const found = templates.find((t) => t.method === request.method.toLowerCase() && t.pattern.test(pathname));
    if (!found) {
      problems.push(`${label}: no operation in the document`);
      continue;
    }
    const declared = found.operation.responses[String(response.statusCode)];
    if (!declared) {
      problems.push(`${label}: status not declared`);
      continue;
    }
    const pointer = `openapi#/paths/${found.path.replaceAll('~', '~0').replaceAll('/', '~1')}/${found.method}/responses/${response.statusCode}/content/application~1json/schema`;
    if (declared.content?.['application/json'] && response.body !== '') {
      const validate = ajv.getSchema(pointer);
      if (!validate?.(JSON.parse(response.body))) problems.push(`${label}: body ${ajv.errorsText(validate?.errors)}`);
    }
    const names = new Set(Object.keys(declared.headers ?? {}).map((name) => name.toLowerCase()));
    for (const name of API_HEADERS)
      if (response.headers[name] !== undefined && !names.has(name)) problems.push(`${label}: header ${name} not declared`);
    const parameters = (found.operation.parameters ?? []).map((p) =>
      '$ref' in p ? doc.components.parameters?.[p.$ref.split('/').at(-1) ?? ''] : p,
    );
    for (const name of Object.keys(request.headers ?? {})) {
      if (name.toLowerCase() === 'idempotency-key' && !parameters.some((p) => p?.in === 'header' && p.name.toLowerCase() === name)) {
        problems.push(`${label}: request header ${name} not declared`);
      }
    }
  }
  return problems;
}

/** Sends requests through the app and keeps each with its answer. */
function recorder(t: TestApp, exchanges: Exchange[]) {
  return async (request: Exchange['request'], auth = true): Promise<LightMyRequestResponse> => {
    const response = await t.app.inject({ ...request, headers: { ...(auth ? t.auth : {}), ...request.headers } });
    exchanges.push({ request, response });
    return response;
  };
}

it.override('appEnv', { SIGNUP: 'open' });

describe('live answers against the OpenAPI document', () => {
  it('every answer of every operation, success and error: declared status, body of the declared schema, every header declared', async ({
    t,
    makeApp,
  }) => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as Document;
    const exchanges: Exchange[] = [];
    const send = recorder(t, exchanges);
    const json = (method: 'POST' | 'PATCH', url: string, payload: unknown, headers: Record<string, string> = {}) =>
      send({ method, url, payload: payload as Json, headers: { 'content-type': 'application/json', ...headers } });

    await send({ method: 'GET', url: '/healthz' }, false);
    await send({ method: 'GET', url: '/readyz' }, false);
    const pets: { id: number }[] = [];
    for (const name of ['a', 'b', 'c', 'd']) pets.push((await json('POST', '/v1/pets', { name, categoryId: 9007199254740991 })).json());
    await json('POST', '/v1/pets', { name: 'once', categoryId: 1 }, { 'idempotency-key': 'conformance-1' });
    await json('POST', '/v1/pets', { name: 'once', categoryId: 1 }, { 'idempotency-key': 'conformance-1' });
    await json('POST', '/v1/pets', { name: 'other', categoryId: 1 }, { 'idempotency-key': 'conformance-1' });
    await json('POST', '/v1/pets', { name: '', categoryId: 1 });
    await send({ method: 'POST', url: '/v1/pets', payload: '{', headers: { 'content-type': 'application/json' } });
    await json('POST', '/v1/pets', { name: 'x'.repeat(2 * 1024 * 1024), categoryId: 1 });
    await send({ method: 'POST', url: '/v1/pets', payload: { name: 'k', categoryId: 1 } }, false);
    const listed = await send({ method: 'GET', url: '/v1/pets?limit=2' });
    await send({ method: 'GET', url: '/v1/pets?limit=2', headers: { 'if-none-match': String(listed.headers.etag) } });
    await send({ method: 'GET', url: '/v1/pets?limit=0' });
    await send({ method: 'GET', url: '/v1/pets?cursor=bogus' });
    await send({ method: 'GET', url: '/v1/pets' }, false);
    const [a, b, c] = pets as [{ id: number }, { id: number }, { id: number }];
    await send({ method: 'GET', url: `/v1/pets/${a.id}` });
    await send({ method: 'GET', url: '/v1/pets/999999' });
    await send({ method: 'GET', url: '/v1/pets/abc' });
    await send({ method: 'GET', url: `/v1/pets/${a.id}` }, false);

    const order = (await json('POST', '/v1/store/orders', { petId: a.id, shipDate: '2026-12-01T10:00:00Z' })).json() as { id: number };
    await json('POST', '/v1/store/orders', { petId: b.id }, { 'idempotency-key': 'conformance-order' });
    await json('POST', '/v1/store/orders', { petId: b.id }, { 'idempotency-key': 'conformance-order' });
    await json('POST', '/v1/store/orders', { petId: a.id });
    await json('POST', '/v1/store/orders', { petId: 999999 });
    await send({ method: 'GET', url: '/v1/store/orders?limit=1' });
    await send({ method: 'GET', url: `/v1/store/orders/${order.id}` });
    await send({ method: 'GET', url: '/v1/store/orders/999999' });
    await json('PATCH', `/v1/store/orders/${order.id}`, { status: 'approved' });
    await json('PATCH', `/v1/store/orders/${order.id}`, { status: 'placed' });
    const other = (await json('POST', '/v1/store/orders', { petId: c.id })).json() as { id: number };
    await send({ method: 'DELETE', url: `/v1/store/orders/${other.id}` });
    await send({ method: 'DELETE', url: `/v1/store/orders/${other.id}` });

    const message = (await json('POST', '/messages', { message: 'hello' })).json() as { id: string };
    await json('POST', '/messages', { message: 'hello' }, { 'idempotency-key': 'conformance-message' });
    await json('POST', '/messages', {});
    await send({ method: 'GET', url: `/messages/${message.id}` });
    await send({ method: 'GET', url: '/messages/msg_1' });
    await send({ method: 'GET', url: '/messages/nope' });

    const key = (await json('POST', '/v1/keys', { name: 'conformance' })).json() as { id: number };
    await send({ method: 'GET', url: '/v1/keys' });
    await send({ method: 'DELETE', url: `/v1/keys/${key.id}` });
    await send({ method: 'DELETE', url: '/v1/keys/999999' });
    await json('POST', '/v1/keys', { name: 'x', extra: 1 });

    for (const account of ['conf-1', 'conf-1', 'conf-2']) {
      await send({ method: 'POST', url: '/signup', payload: { account }, remoteAddress: '203.0.113.77' }, false);
    }

    // Spent budgets and a busy database, on apps of their own.
    const tight = await makeApp({ RATE_LIMIT_PER_MINUTE: '1', MESSAGE_RATE_LIMIT_PER_MINUTE: '1' });
    const tightSend = recorder(tight, exchanges);
    await tightSend({ method: 'GET', url: '/v1/pets' });
    await tightSend({ method: 'GET', url: '/v1/pets' });
    const locked = await makeApp({ DATABASE_LOCK_TIMEOUT_MS: '100' });
    const lock = await holdWriteLock(locked.databaseUrl, 'pets');
    try {
      await recorder(locked, exchanges)({ method: 'POST', url: '/v1/pets', payload: { name: 'waits', categoryId: 1 } });
    } finally {
      await lock.release();
    }

    const statuses = new Set(exchanges.map((e) => e.response.statusCode));
    expect([...statuses].sort()).toEqual([200, 201, 204, 304, 400, 401, 404, 409, 413, 422, 429, 503]);
    expect(conformanceProblems(doc, exchanges)).toEqual([]);
  });
});
