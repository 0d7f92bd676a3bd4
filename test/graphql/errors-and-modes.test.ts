import { afterEach, describe, expect, it } from 'vitest';
import { graphql } from '../helpers/graphql.ts';
import { spyOnSelects } from '../helpers/select-spy.ts';
import { startTestApp } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const INTROSPECTION = '{ __schema { types { name } } }';

describe('unexpected errors', () => {
  it('are masked as "Unexpected error." and logged with the request id', async () => {
    const lines: string[] = [];
    t = await startTestApp(
      { LOG_LEVEL: 'info' },
      spyOnSelects((table) => {
        if (table === 'pets') throw new Error('disk on fire at /var/lib/secret.db');
      }),
      { write: (line) => void lines.push(line) },
    );
    const { res, body } = await graphql(t, '{ pets { totalCount } }');
    expect(body.data).toBeNull();
    expect(body.errors).toEqual([expect.objectContaining({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_ERROR', status: 500 } })]);
    expect(res.body).not.toMatch(/fire|secret|\/var/);
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; requestId?: string; err?: { message: string } });
    const entry = logged.find((l) => l.err?.message.includes('disk on fire'));
    expect(entry?.requestId).toEqual(expect.any(String));
    expect(logged.some((l) => l.requestId === entry?.requestId && l.msg === 'request')).toBe(true);
  });
});

describe('GraphiQL and introspection', () => {
  it('serves a self-contained GraphiQL to browsers with all four operations and the header hint', async () => {
    t = await startTestApp();
    const res = await t.app.inject({ url: '/graphql', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).not.toMatch(/<script[^>]+src="https?:|<link[^>]+href="https?:\/\/(unpkg|cdn)/);
    for (const op of ['pets(', 'createPet(', 'pet(id:', 'sendMessage(', 'Authorization']) expect(res.body).toContain(op);
  });

  it('in production: no GraphiQL, no introspection, no "Did you mean" hints', async () => {
    t = await startTestApp({ NODE_ENV: 'production' });
    const page = await t.app.inject({ url: '/graphql', headers: { accept: 'text/html' } });
    expect(page.body).not.toMatch(/YogaGraphiQL/);
    const introspection = await graphql(t, INTROSPECTION);
    expect(introspection.res.statusCode).toBe(400);
    expect(introspection.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    const typo = await graphql(t, '{ petz { totalCount } }');
    expect(typo.body.errors?.[0]?.message).not.toMatch(/Did you mean/);
    expect((await graphql(t, '{ pets { totalCount } }')).res.statusCode).toBe(200);
  });

  it('in production, GRAPHIQL=true and GRAPHQL_INTROSPECTION=true turn them back on', async () => {
    t = await startTestApp({ NODE_ENV: 'production', GRAPHIQL: 'true', GRAPHQL_INTROSPECTION: 'true' });
    const page = await t.app.inject({ url: '/graphql', headers: { accept: 'text/html' } });
    expect(page.body).toMatch(/YogaGraphiQL/);
    expect((await graphql(t, INTROSPECTION, undefined, {})).res.statusCode).toBe(200);
  });
});
