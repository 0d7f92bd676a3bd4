import { describe, expect, it } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';

const PETS = '{ pets(first: 1) { totalCount } }';
/** The PETS query over POST, with these headers beside its JSON content type. */
const postPets = (t: { call: TestApp['call'] }, headers: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: { query: PETS } });

describe('GraphQL over HTTP: one path for queries and mutations, GET and POST', () => {
  it('takes the preferred JSON type by q-value, as Apollo Client asks for it', async ({ t }) => {
    for (const [accept, type] of [
      ['application/graphql-response+json,application/json;q=0.9', 'application/graphql-response+json'],
      ['application/json;q=0.5, application/graphql-response+json;q=0.9', 'application/graphql-response+json'],
      ['application/graphql-response+json;q=0.2, application/json', 'application/json'],
      ['*/*', 'application/json'],
    ] as const) {
      const res = await t.call({
        method: 'POST',
        url: '/graphql',
        headers: { accept, 'content-type': 'application/json' },
        payload: { query: PETS },
      });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-type'], accept).toBe(`${type}; charset=utf-8`);
    }
  });

  it('takes the preferred stream type by q-value, then the one listed first, for increments and for one framed result', async ({ t }) => {
    // A deferred part needs a pet to defer: with none, the one result goes out as JSON.
    await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Streamed', categoryId: 1 } });
    const deferred = '{ pets(first: 1) { nodes { id ... @defer { name } } } }';
    for (const [accept, query, type] of [
      ['multipart/mixed;q=0.5, text/event-stream, application/json;q=0.1', deferred, 'text/event-stream'],
      ['text/event-stream;q=0.5, multipart/mixed, application/json;q=0.1', deferred, 'multipart/mixed'],
      ['multipart/mixed, text/event-stream', deferred, 'multipart/mixed'],
      ['text/event-stream, multipart/mixed', deferred, 'text/event-stream'],
      ['multipart/mixed;q=0.3, text/event-stream;q=0.7', PETS, 'text/event-stream'],
      ['text/event-stream;q=0.3, multipart/mixed;q=0.7', PETS, 'multipart/mixed'],
    ] as const) {
      const res = await t.call({
        method: 'POST',
        url: '/graphql',
        headers: { accept, 'content-type': 'application/json' },
        payload: { query },
      });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-type'], accept).toMatch(new RegExp(`^${type}`));
    }
  });

  it('reads GET parameters as POST ones: variables and extensions as JSON, refused with 400 when they are not', async ({ t }) => {
    const query = 'query($n: Int) { pets(first: $n) { nodes { id } } }';
    const url = (variables: string) => `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(variables)}`;
    const ok = await t.call({ url: url('{"n":1}'), headers: { accept: 'application/json' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ data: { pets: { nodes: expect.any(Array) } } });
    const bad = await t.call({ url: url('{n:1}'), headers: { accept: 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { message: "Query parameter 'variables' is not valid JSON.", extensions: { code: 'VALIDATION_FAILED', status: 400 } },
    ]);
    const twice = await t.call({ url: `${url('{"n":1}')}&variables=%7B%7D`, headers: { accept: 'application/json' } });
    expect(twice.json().errors[0].message).toBe("Send 'variables' once.");
  });

  it.for([
    [{ query: PETS, other: 1 }, "Unexpected parameter 'other' in the request body."],
    [{ query: PETS, variables: '{"n":1}' }, "'variables' must be an object of the operation's variables."],
    [{ query: 42 }, "'query' must be a string: the operation's text."],
    [{ query: PETS, operationName: 1 }, "'operationName' must be a string."],
    [{ query: PETS, extensions: [] }, "'extensions' must be an object."],
  ] as const)('refuses a malformed POST body %j with 400 VALIDATION_FAILED, saying what is wrong', async ([payload, message], { t }) => {
    const res = await t.call({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ message, extensions: { code: 'VALIDATION_FAILED', status: 400 } }]);
  });

  it('answers a browser (Origin) as any other client', async ({ t }) => {
    const plain = await postPets(t);
    const browser = await postPets(t, { origin: 'https://app.example' });
    expect(browser.statusCode).toBe(200);
    expect(browser.body).toBe(plain.body);
  });

  it('refuses a request that accepts neither JSON nor a stream with 406, naming what works', async ({ t }) => {
    const res = await postPets(t, { accept: 'image/png' });
    expect(res.statusCode).toBe(406);
    expect(res.json()).toEqual({
      code: 'NOT_ACCEPTABLE',
      status: 406,
      message: expect.stringMatching(/application\/json.*text\/event-stream/),
    });
  });
});
