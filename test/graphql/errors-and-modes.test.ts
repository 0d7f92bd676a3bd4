import { describe, expect, it } from '../helpers/fixtures.ts';
import type { MakeApp } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { spyOnSelects } from '../helpers/select-spy.ts';
import { subscribe } from '../helpers/sse-client.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  err?: { message: string };
}

const INTROSPECTION = '{ __schema { types { name } } }';

/** An app whose reads of `table` fail with a message that must not reach clients, and its log lines. */
async function failingOn(makeApp: MakeApp, table: string): Promise<{ t: TestApp; lines: string[] }> {
  const lines: string[] = [];
  const t = await makeApp(
    { LOG_LEVEL: 'info' },
    {
      wrapDb: spyOnSelects((read) => {
        if (read === table) throw new Error('disk on fire at /var/lib/secret.db');
      }),
      logStream: { write: (line) => void lines.push(line) },
    },
  );
  return { t, lines };
}

describe('unexpected errors', () => {
  it('are masked as "An unexpected error occurred.", the words REST uses, and logged with the request id', async ({ makeApp }) => {
    const { t, lines } = await failingOn(makeApp, 'pets');
    const { res, body } = await graphql(t, '{ pets { totalCount } }');
    expect(body.data).toBeNull();
    expect(body.errors).toEqual([
      expect.objectContaining({ message: 'An unexpected error occurred.', extensions: { code: 'INTERNAL_ERROR', status: 500 } }),
    ]);
    expect(res.body).not.toMatch(/fire|secret|\/var/);
    const logged = lines.map((l) => JSON.parse(l) as LogLine);
    const errors = logged.filter((l) => l.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.err?.message).toContain('disk on fire');
    expect(errors[0]?.requestId).toEqual(expect.any(String));
    expect(logged.some((l) => l.requestId === errors[0]?.requestId && l.msg === 'request')).toBe(true);
  });

  it('in an event of a subscription: masked in the event, logged once with the request id', async ({ makeApp }) => {
    const { t, lines } = await failingOn(makeApp, 'orders');
    const sub = await subscribe(await t.listen(), 'subscription { petCreated { id orders { id } } }', {}, t.auth);
    expect(sub.status).toBe(200);
    await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Rex', categoryId: 1 } });
    const event = await sub.next();
    sub.close();
    expect(event.data?.errors).toEqual([
      expect.objectContaining({ message: 'An unexpected error occurred.', extensions: { code: 'INTERNAL_ERROR', status: 500 } }),
    ]);
    await expect
      .poll(() => lines.map((l) => JSON.parse(l) as LogLine).filter((l) => l.level >= 50))
      .toEqual([
        expect.objectContaining({
          requestId: expect.any(String),
          err: expect.objectContaining({ message: expect.stringContaining('disk on fire') }),
        }),
      ]);
  });
});

describe('GraphiQL and introspection', () => {
  it('serves GraphiQL to browsers from this server alone, with all four operations and the header hint', async ({ makeApp }) => {
    const t = await makeApp();
    const res = await t.app.inject({ url: '/graphql', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    // Nothing from elsewhere: every script, style and icon is one of this server's assets.
    const assets = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) expect(asset).toMatch(/^\/graphql\/assets\/graphiql-[\w-]{16}\.(js|css|ico)$/);
    const script = await t.app.inject({ url: assets.find((a) => a.endsWith('.js')) ?? '' });
    for (const op of ['pets(', 'createPet(', 'pet(id:', 'sendMessage(', 'Authorization']) expect(script.body).toContain(op);
  });

  it('in production: no GraphiQL, no introspection, no "Did you mean" hints', async ({ makeApp }) => {
    const t = await makeApp({ NODE_ENV: 'production' });
    const page = await t.app.inject({ url: '/graphql', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(406);
    expect(page.json()).toEqual({ code: 'NOT_ACCEPTABLE', message: expect.stringMatching(/Accept: application\/json/), status: 406 });
    const introspection = await graphql(t, INTROSPECTION);
    expect(introspection.res.statusCode).toBe(400);
    expect(introspection.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    for (const [query, variables] of [
      ['{ petz { totalCount } }', undefined],
      ['{ pets(status: availabl) { totalCount } }', undefined],
      ['query($s: PetStatus) { pets(status: $s) { totalCount } }', { s: 'availabl' }],
      ['mutation($i: NewPetInput!) { createPet(input: $i) { id } }', { i: { nam: 'x', categoryId: 1 } }],
    ] as const) {
      const typo = await graphql(t, query, variables);
      expect(typo.res.statusCode, query).toBe(400);
      expect(typo.body.errors?.length, query).toBeGreaterThan(0);
      for (const error of typo.body.errors ?? []) expect(error.message, query).not.toMatch(/Did you mean|"available"/);
    }
    expect((await graphql(t, '{ pets { totalCount } }')).res.statusCode).toBe(200);
  });

  it('in production, GRAPHIQL=true and GRAPHQL_INTROSPECTION=true turn them back on', async ({ makeApp }) => {
    const t = await makeApp({ NODE_ENV: 'production', GRAPHIQL: 'true', GRAPHQL_INTROSPECTION: 'true' });
    const page = await t.app.inject({ url: '/graphql', headers: { accept: 'text/html' } });
    const script = /src="([^"]+\.js)"/.exec(page.body)?.[1] ?? '';
    expect((await t.app.inject({ url: script })).body).toMatch(/YogaGraphiQL/);
    expect((await graphql(t, INTROSPECTION, undefined, {})).res.statusCode).toBe(200);
  });
});

describe('the edges of GraphQL over HTTP', () => {
  it('answers a mutation sent with GET 405 with Allow: POST', async ({ makeApp }) => {
    const t = await makeApp();
    const res = await t.call({ url: `/graphql?query=${encodeURIComponent('mutation { sendMessage(message: "x") { id } }')}` });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json().errors[0].extensions).toEqual({ code: 'METHOD_NOT_ALLOWED', status: 405 });
    expect(await t.db.selectFrom('messages').select('id').execute()).toEqual([]);
  });

  it.for(['[]', '1', 'null', '"query"', 'true'] as const)(
    'answers the JSON body %s with a clean 400: it must be an object',
    async (payload, { makeApp }) => {
      const t = await makeApp();
      const res = await t.call({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        errors: [{ message: 'The request body must be a JSON object.', extensions: { code: 'VALIDATION_FAILED', status: 400 } }],
      });
    },
  );

  it('answers HEAD and OPTIONS alike: 405 with the same Allow, which lists no method it refuses', async ({ t }) => {
    const head = await t.app.inject({ method: 'HEAD', url: '/graphql' });
    const options = await t.app.inject({ method: 'OPTIONS', url: '/graphql' });
    expect([head.statusCode, options.statusCode]).toEqual([405, 405]);
    expect(head.headers.allow).toBe('GET, POST');
    expect(options.headers.allow).toBe('GET, POST');
    expectErrorBody(options, 'METHOD_NOT_ALLOWED');
  });

  it('counts aliases of __typename against the alias limit', async ({ makeApp }) => {
    const t = await makeApp();
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: __typename`).join(' ');
    const { res, body } = await graphql(t, `{ ${aliases} }`);
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('adds no CORS headers of its own: only CORS_ORIGINS decides', async ({ makeApp }) => {
    let t = await makeApp();
    const res = await t.call({
      method: 'POST',
      url: '/graphql',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: { query: '{ __typename }' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    await t.close();
    t = await makeApp({ CORS_ORIGINS: 'https://app.example' });
    const allowed = await t.call({
      method: 'POST',
      url: '/graphql',
      headers: { origin: 'https://app.example', 'content-type': 'application/json' },
      payload: { query: '{ __typename }' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
    const other = await t.call({
      method: 'POST',
      url: '/graphql',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: { query: '{ __typename }' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('logs of GraphQL client errors', () => {
  it('are no error lines and no stacks; the access line at info says the status', async ({ makeApp }) => {
    const lines: string[] = [];
    const t = await makeApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
    await t.call({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload: '{"query": ' });
    await graphql(t, '{ petz }');
    await graphql(t, '{ pets(first: 500) { totalCount } }');
    await graphql(t, 'query($s: PetStatus) { pets(status: $s) { totalCount } }', { s: 'lost' });
    await graphql(t, '{ pets { totalCount } }', undefined, {});
    const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string; status?: number });
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.join('\n')).not.toMatch(/"stack"/);
    expect(logged.filter((l) => l.msg === 'request').map((l) => l.status)).toEqual([400, 400, 200, 400, 401]);
  });
});
