import fc from 'fast-check';
import { describe, it } from '../helpers/fixtures.ts';
import { anyObject, expectCleanRestAnswer, headerText, jsonValue, property } from './fuzz-support.ts';

it.override('appEnv', { RATE_LIMIT_PER_MINUTE: '0' });
it.beforeAll(async ({ t }) => {
  await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'seed', categoryId: 1 } });
});

const bodyOrText = fc.oneof(anyObject, jsonValue, fc.string({ maxLength: 200 }));
const contentType = fc.oneof(
  fc.constant('application/json'),
  fc.constant('application/json; charset=utf-8'),
  fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', ''),
  headerText,
);

function payloadOf(value: unknown, type: string): { payload: string; headers: Record<string, string> } {
  const payload = typeof value === 'string' && type !== 'application/json' ? value : (JSON.stringify(value) ?? '');
  return { payload, headers: type === '' ? {} : { 'content-type': type } };
}

describe('REST under generated input', () => {
  for (const url of ['/v1/pets', '/messages', '/v1/store/orders']) {
    property(`POST ${url}: bodies and content types`, fc.tuple(bodyOrText, contentType), async ([value, type], t) => {
      const { payload, headers } = payloadOf(value, type);
      expectCleanRestAnswer(await t.call({ method: 'POST', url, payload, headers }));
    });
  }

  property(
    'POST /v1/pets: near-valid pets',
    fc.record({ name: jsonValue, categoryId: jsonValue, status: jsonValue }, { requiredKeys: [] }),
    async (body, t) => {
      expectCleanRestAnswer(await t.call({ method: 'POST', url: '/v1/pets', payload: body }));
    },
  );

  for (const path of ['/v1/pets', '/v1/store/orders']) {
    property(
      `GET ${path}: query strings`,
      fc.dictionary(
        fc.oneof(fc.constantFrom('limit', 'status', 'cursor'), fc.string({ maxLength: 8 })),
        fc.oneof(fc.string({ maxLength: 40 }), fc.integer().map(String)),
        { maxKeys: 4 },
      ),
      async (query, t) => {
        const search = Object.entries(query)
          .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
          .join('&');
        expectCleanRestAnswer(await t.call({ url: `${path}?${search}` }));
      },
    );
  }

  for (const [method, template] of [
    ['GET', '/v1/pets/:id'],
    ['GET', '/messages/:id'],
    ['GET', '/v1/store/orders/:id'],
    ['PATCH', '/v1/store/orders/:id'],
    ['DELETE', '/v1/store/orders/:id'],
  ] as const) {
    property(
      `${method} ${template}: path ids`,
      fc.oneof(fc.string({ maxLength: 30 }), fc.bigInt().map(String), fc.double().map(String)),
      async (id, t) => {
        const url = template.replace(':id', encodeURIComponent(id) || '%20');
        expectCleanRestAnswer(await t.call({ method, url, ...(method === 'PATCH' ? { payload: { status: 'approved' } } : {}) }));
      },
    );
  }

  property(
    'any route: headers (Authorization, Idempotency-Key, X-Request-Id, Accept)',
    fc.record(
      { authorization: headerText, 'idempotency-key': headerText, 'x-request-id': headerText, accept: headerText },
      { requiredKeys: [] },
    ),
    async (headers, t) => {
      expectCleanRestAnswer(await t.app.inject({ method: 'POST', url: '/v1/pets', payload: { name: 'hdr', categoryId: 1 }, headers }));
      expectCleanRestAnswer(await t.app.inject({ url: '/v1/pets', headers: { ...headers, authorization: `Bearer ${t.key}` } }));
    },
  );
});
