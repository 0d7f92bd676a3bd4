import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { cacheExchange, createClient, fetchExchange } from '@urql/core';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import type { TestApp } from '../helpers/test-app.ts';

// @defer and @stream on queries, as the clients front ends use read them (docs/graphql.md,
// "Incremental delivery", sets them up the same way); a client that takes only JSON gets the
// whole answer at once.

const DEFERRED = '{ pets(first: 3) { nodes { id ... @defer { name status } } } }';
const STREAMED = '{ pets(first: 3) { nodes @stream(initialCount: 1) { id name } } }';
const WHOLE = { pets: { nodes: ['Ada', 'Bo', 'Cy'].map((name, i) => ({ id: String(i + 1), name })) } };

it.beforeAll(async ({ t }) => {
  for (const name of ['Ada', 'Bo', 'Cy']) await t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1 } });
});

/** A query sent as a client that reads increments over multipart/mixed sends it: the parts' JSON, in order. */
async function multipart(t: TestApp, query: string, accept = 'multipart/mixed;deferSpec=20220824, application/json') {
  const res = await fetch(`${await t.listen()}/graphql`, {
    method: 'POST',
    headers: { ...t.auth, 'content-type': 'application/json', accept },
    body: JSON.stringify({ query }),
  });
  const text = await res.text();
  const parts = text
    .split(/\r\n-{3,}/)
    .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).trim())
    .filter((body) => body.startsWith('{'))
    .map((body) => JSON.parse(body) as Record<string, unknown>);
  return { status: res.status, type: res.headers.get('content-type'), parts, text };
}

describe('@defer and @stream on queries', () => {
  it('sends the first part at once and the rest as increments over multipart/mixed', async ({ t }) => {
    const deferred = await multipart(t, DEFERRED);
    expect(deferred.status).toBe(200);
    expect(deferred.type).toMatch(/^multipart\/mixed/);
    expect(deferred.parts[0]).toEqual({ data: { pets: { nodes: [{ id: '1' }, { id: '2' }, { id: '3' }] } }, hasNext: true });
    expect(deferred.parts.at(-1)).toMatchObject({ hasNext: false });
    const increments = deferred.parts.flatMap((part) => (part.incremental as { data?: unknown; path: unknown[] }[] | undefined) ?? []);
    expect(increments).toContainEqual({ data: { name: 'Bo', status: 'available' }, path: ['pets', 'nodes', 1] });

    const streamed = await multipart(t, STREAMED);
    expect(streamed.parts[0]).toEqual({ data: { pets: { nodes: [{ id: '1', name: 'Ada' }] } }, hasNext: true });
    const items = streamed.parts
      .flatMap((part) => (part.incremental as { items?: unknown[] }[] | undefined) ?? [])
      .flatMap((i) => i.items ?? []);
    expect(items).toEqual([
      { id: '2', name: 'Bo' },
      { id: '3', name: 'Cy' },
    ]);
  });

  it('sends them as events over SSE (text/event-stream), the last saying there is nothing more', async ({ t }) => {
    const res = await fetch(`${await t.listen()}/graphql`, {
      method: 'POST',
      headers: { ...t.auth, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: DEFERRED }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text())
      .split('\n\n')
      .map((event) => /^data: (.*)$/m.exec(event)?.[1])
      .filter((data) => data !== undefined && data !== '')
      .map((data) => JSON.parse(data as string) as Record<string, unknown>);
    expect(events[0]).toEqual({ data: { pets: { nodes: [{ id: '1' }, { id: '2' }, { id: '3' }] } }, hasNext: true });
    expect(events.at(-1)).toMatchObject({ hasNext: false });
    expect(JSON.stringify(events)).toContain('{"data":{"name":"Cy","status":"available"},"path":["pets","nodes",2]}');
  });

  it('answers a client that takes only JSON with the whole answer at once, and keeps it as any answer', async ({ t }) => {
    for (const query of [DEFERRED, STREAMED]) {
      const { res, body } = await graphql(t, query);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
      expect(body.data).toMatchObject({ pets: { nodes: expect.arrayContaining([expect.objectContaining({ id: '1' })]) } });
    }
    // Kept whole (a JSON answer), never replayed to a client that asked for increments: they still come as parts.
    expect((await graphql(t, STREAMED)).body).toEqual({ data: WHOLE });
    const again = await multipart(t, STREAMED);
    expect(again.type).toMatch(/^multipart\/mixed/);
    expect(again.parts[0]).toMatchObject({ hasNext: true });
  });

  it('charges a streamed list as a plain one against the cost limit', async ({ t }) => {
    const pages = (directive: string) =>
      `{ ${Array.from({ length: 10 }, (_, i) => `p${i}: pets(first: 100) { nodes ${directive} { id orders { id pet { name } } } }`).join(' ')} }`;
    const plain = await graphql(t, pages(''));
    const streamed = await multipart(t, pages('@stream(initialCount: 1)'));
    expect(plain.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', status: 400 });
    // Refused before a stream starts: the refusal is the whole answer, with its status.
    expect(streamed.status).toBe(400);
    expect(streamed.text).toContain(plain.body.errors?.[0]?.message ?? 'no refusal');
  });

  it('refuses @stream on a field that is not a list, in graphql-js’s words', async ({ t }) => {
    const { res, body } = await graphql(t, '{ pets(first: 1) @stream { totalCount } }');
    expect(res.statusCode).toBe(400);
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED', status: 400 } });
  });
});

describe('incremental delivery in the clients front ends use', () => {
  it('Apollo Client (Defer20220824Handler) receives the deferred fields, then the streamed items', async ({ t }) => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${await t.listen()}/graphql`, headers: t.auth }),
      cache: new InMemoryCache(),
      incrementalHandler: new Defer20220824Handler(),
    });
    for (const query of [DEFERRED, STREAMED]) {
      const seen: { loading: boolean; data: unknown }[] = [];
      await new Promise<void>((resolve, reject) => {
        client.watchQuery({ query: gql(query), fetchPolicy: 'network-only' }).subscribe({
          next: (result) => {
            if (result.data) seen.push({ loading: result.loading, data: result.data });
            if (!result.loading) resolve();
          },
          error: reject,
        });
      });
      // A part came before the whole (still loading): without what was deferred or streamed.
      expect(seen[0]?.loading).toBe(true);
      expect(JSON.stringify(seen[0]?.data)).not.toContain('Cy');
      expect(seen.at(-1)).toMatchObject({
        loading: false,
        data: { pets: { nodes: [{ id: '1', name: 'Ada' }, { id: '2' }, { id: '3', name: 'Cy' }] } },
      });
    }
  });

  it('urql receives the deferred fields as increments of one result', async ({ t }) => {
    const client = createClient({
      url: `${await t.listen()}/graphql`,
      exchanges: [cacheExchange, fetchExchange],
      fetchOptions: { headers: t.auth },
    });
    const results: { data?: unknown; hasNext?: boolean }[] = [];
    await new Promise<void>((resolve) => {
      client.query(DEFERRED, {}).subscribe((result) => {
        results.push({ data: result.data, hasNext: result.hasNext });
        if (!result.hasNext) resolve();
      });
    });
    // urql adds __typename to what it asks for.
    expect(results[0]).toMatchObject({ data: { pets: { nodes: [{ id: '1' }, { id: '2' }, { id: '3' }] } }, hasNext: true });
    expect(JSON.stringify(results[0])).not.toContain('Ada');
    expect(results.at(-1)).toMatchObject({
      data: { pets: { nodes: ['Ada', 'Bo', 'Cy'].map((name, i) => ({ id: String(i + 1), name, status: 'available' })) } },
      hasNext: false,
    });
  });
});
