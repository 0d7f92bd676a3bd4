import { describe, expect, it } from '../helpers/fixtures.ts';
import { revokeApiKey, createApiKey } from '../../src/services/api-keys/index.ts';
import { GRAPHQL_LIMITS } from '../../src/graphql/graphql-limits.ts';
import { graphql } from '../helpers/graphql.ts';

describe('bearer keys on GraphQL', () => {
  const operations = [
    '{ pets { totalCount } }',
    '{ pet(id: "1") { id } }',
    'mutation { createPet(input: {name: "Ghost", categoryId: 1}) { id } }',
    'mutation { sendMessage(message: "hi") { id } }',
    '{ __typename pets { totalCount } }',
    'query { ...Q } fragment Q on Query { pets { totalCount } }',
  ];
  const badHeaders: [string, Record<string, string>][] = [
    ['no key', {}],
    ['a malformed key', { authorization: 'Bearer nope' }],
    ['an unknown key', { authorization: `Bearer psk_${'B'.repeat(40)}` }],
  ];
  for (const query of operations) {
    it.for(badHeaders)(`${query}: HTTP 401, UNAUTHORIZED, no data, with %s`, async ([_label, headers], { t }) => {
      const { res, body } = await graphql(t, query, undefined, headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="petstore"');
      expect(body.data).toBeUndefined();
      expect(body.errors).toEqual([expect.objectContaining({ extensions: { code: 'UNAUTHORIZED', status: 401 } })]);
    });
  }

  it('stores nothing for an unauthenticated mutation', async ({ t }) => {
    await graphql(t, 'mutation { createPet(input: {name: "Ghost", categoryId: 1}) { id } }', undefined, {});
    expect(await t.db.selectFrom('pets').select('id').where('name', '=', 'Ghost').execute()).toEqual([]);
  });

  it.for([
    '{ __schema { queryType { name } } }',
    '{ __type(name: "Pet") { name } }',
    '{ __typename }',
    'query { ...I } fragment I on Query { __typename }',
  ] as const)('lets introspection-only %s through without a key', async (query, { t }) => {
    const { res, body } = await graphql(t, query, undefined, {});
    expect(res.statusCode).toBe(200);
    expect(body.errors).toBeUndefined();
  });

  it('with introspection off (production), refuses a request without a valid key before anything reads its document', async ({
    makeApp,
  }) => {
    const t = await makeApp({ NODE_ENV: 'production', METRICS_PORT: '0' });
    const cachedBytes = async () => Number(/^petstore_graphql_documents_cached_bytes (\d+)/m.exec(await t.scrape())?.[1]);
    const documents = [
      '{ nope }',
      '{ pets(bogus: 1) { totalCount } }',
      '{ pets { nodes { nam } } }',
      '{',
      '{ __schema { queryType { name } } }',
      '{ __typename }',
      `{ ${Array.from({ length: 2_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
    ];
    for (const headers of [{}, { authorization: `Bearer psk_${'B'.repeat(40)}` }, { authorization: 'Basic eDp5' }]) {
      for (const query of documents) {
        for (const accept of ['application/json', 'text/event-stream']) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/graphql',
            headers: { 'content-type': 'application/json', accept, ...headers },
            payload: { query },
          });
          expect(res.statusCode, `${query.slice(0, 40)} ${accept}`).toBe(401);
          expect(res.body).toContain('"code":"UNAUTHORIZED"');
          expect(res.body).not.toMatch(/nope|bogus|nam\b|Syntax|Cannot query|Did you mean/);
        }
      }
      const get = await t.app.inject({ url: `/graphql?query=${encodeURIComponent('{ nope }')}`, headers });
      expect(get.statusCode).toBe(401);
      expect(get.body).not.toMatch(/nope/);
    }
    // Not one of those documents was parsed and kept; a keyed one is.
    expect(await cachedBytes()).toBe(0);
    const keyed = await graphql(t, '{ nope }');
    expect(keyed.res.statusCode).toBe(400);
    expect(await cachedBytes()).toBeGreaterThan(0);
  });

  it('refuses a revoked key on its next operation', async ({ t }) => {
    const { key, id } = await createApiKey(t.db, 'gql-revoked');
    const headers = { authorization: `Bearer ${key}` };
    expect((await graphql(t, '{ pets { totalCount } }', undefined, headers)).res.statusCode).toBe(200);
    await revokeApiKey(t.db, String(id));
    expect((await graphql(t, '{ pets { totalCount } }', undefined, headers)).res.statusCode).toBe(401);
  });
});

describe('sendMessage', () => {
  it('queues a message like POST /messages, readable over REST by the same account', async ({ t }) => {
    const { body } = await graphql(
      t,
      'mutation { sendMessage(message: "via graphql") { id message status createdAt updatedAt attempts failureReason } }',
    );
    const message = body.data?.sendMessage as { id: string; createdAt: string };
    expect(message).toEqual({
      id: expect.stringMatching(/^msg_\d+$/),
      message: 'via graphql',
      status: 'queued',
      createdAt: expect.any(String),
      updatedAt: message.createdAt,
      attempts: 0,
      failureReason: null,
    });
    expect(message.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const rest = await t.call({ url: `/messages/${message.id}` });
    expect(rest.json()).toEqual(message);
    const read = await graphql(t, `{ message(id: "${message.id}") { id message status createdAt updatedAt attempts failureReason } }`);
    expect(read.body.data?.message).toEqual(message);
  });

  it.for([
    ['an empty message', '""'],
    ['a message over 4096 characters', JSON.stringify('x'.repeat(4097))],
  ] as const)('refuses %s with VALIDATION_FAILED, storing nothing', async ([_label, literal], { t }) => {
    const before = await t.db.selectFrom('messages').select('id').execute();
    const { body } = await graphql(t, `mutation { sendMessage(message: ${literal}) { id } }`);
    expect(body.data).toBeNull();
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
    expect(await t.db.selectFrom('messages').select('id').execute()).toHaveLength(before.length);
  });
});

describe('abuse limits, checked before execution', () => {
  it(`refuses more than ${GRAPHQL_LIMITS.maxAliases} aliases`, async ({ t }) => {
    const query = `{ ${Array.from({ length: GRAPHQL_LIMITS.maxAliases + 1 }, (_, i) => `a${i}: pets(first: 1) { totalCount }`).join(' ')} }`;
    const { res, body } = await graphql(t, query);
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', status: 400 });
    expect(body.errors?.[0]?.message).toMatch(/16 aliases, over the limit of 15/);
  });

  it(`refuses a document over ${GRAPHQL_LIMITS.maxTokens} tokens`, async ({ t }) => {
    const query = `{ pets { ${'nodes { id } '.repeat(300)} } }`;
    const { res, body } = await graphql(t, query);
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });

  it(`refuses more than ${GRAPHQL_LIMITS.maxDirectives} directives`, async ({ t }) => {
    const query = `{ pets { totalCount ${'@include(if: true) '.repeat(GRAPHQL_LIMITS.maxDirectives + 1)} } }`;
    const { res, body } = await graphql(t, query);
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });

  it(`refuses depth beyond ${GRAPHQL_LIMITS.maxDepth}`, async ({ t }) => {
    // The schema's own paths are shallow (pets > edges > node > id), so nested inline fragments make the depth.
    let selection = 'id';
    for (let i = 0; i < GRAPHQL_LIMITS.maxDepth; i++) selection = `... on Pet { ${selection} }`;
    const { res, body } = await graphql(t, `{ pets { edges { node { ${selection} } } } }`);
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
    expect(body.errors?.[0]?.message).toMatch(/12 levels deep, over the limit of 8/);
    expect((await graphql(t, '{ pets { edges { node { ... on Pet { id } } } } }')).res.statusCode).toBe(200);
  });

  it('refuses a malformed document with 400 GRAPHQL_PARSE_FAILED, never 500', async ({ t }) => {
    for (const query of ['{ pets { totalCount ', '}}}', 'query (', '"unterminated']) {
      const { res, body } = await graphql(t, query);
      expect(res.statusCode, query).toBe(400);
      expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    }
  });

  it('refuses an unknown field with 400 VALIDATION_FAILED', async ({ t }) => {
    const { res, body } = await graphql(t, '{ petz { totalCount } }');
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('does not batch: an array of operations is refused with a 4xx', async ({ t }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: [{ query: '{ __typename }' }, { query: '{ __typename }' }],
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('answers queries sent with GET', async ({ t }) => {
    const res = await t.app.inject({
      url: `/graphql?query=${encodeURIComponent('{ pets(first: 1) { totalCount } }')}`,
      headers: { ...t.auth, accept: 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.pets.totalCount).toEqual(expect.any(Number));
  });
});
