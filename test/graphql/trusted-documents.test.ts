import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { petstoreAsync } from '../helpers/cli.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';

const LIST = 'query Pets { pets(first: 2) { nodes { name } } }';
const CREATE = 'mutation Create($name: String!) { createPet(input: { name: $name, categoryId: 1 }) { id name } }';
const CREATED = 'subscription Created { petCreated { name } }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What an SSE answer has sent once `until` matches (or it ended), the stream then closed. */
async function eventsUntil(res: Response, until: RegExp): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (until.test(text)) break;
  }
  return text;
}

/** A manifest as graphql-codegen's client preset writes it: { "sha256:<hex>": "<document>" }. */
function manifest(dir: string, documents: string[]): string {
  const path = join(dir, 'persisted-documents.json');
  writeFileSync(path, JSON.stringify(Object.fromEntries(documents.map((d) => [`sha256:${sha256(d)}`, d]))));
  return path;
}

async function post(t: TestApp, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await t.call({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: body });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: res.json() as { data?: Record<string, unknown>; errors?: { message: string; extensions: unknown }[] },
  };
}

describe('trusted documents (GRAPHQL_TRUSTED_DOCUMENTS)', () => {
  it('without a manifest: query text runs, and a documentId is UNKNOWN_DOCUMENT', async ({ t }) => {
    expect((await post(t, { query: LIST })).status).toBe(200);
    const unknown = await post(t, { documentId: `sha256:${sha256(LIST)}` });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]?.extensions).toEqual({ code: 'UNKNOWN_DOCUMENT', status: 400 });
  });

  it('runs a document by its id (sha256:…, bare, or Apollo’s extension), Idempotency-Key included', async ({ makeApp, tmp }) => {
    const t = await makeApp({ GRAPHQL_TRUSTED_DOCUMENTS: manifest(tmp, [LIST, CREATE]) });
    await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Listed', categoryId: 1 } });
    for (const body of [
      { documentId: `sha256:${sha256(LIST)}` },
      { documentId: sha256(LIST) },
      { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(LIST) } } },
    ]) {
      const res = await post(t, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { pets: { nodes: [{ name: 'Listed' }] } } });
    }
    const create = { documentId: `sha256:${sha256(CREATE)}`, variables: { name: 'By id' } };
    const first = await post(t, create, { 'idempotency-key': 'trusted-1' });
    const again = await post(t, create, { 'idempotency-key': 'trusted-1' });
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await t.count('pets')).toBe(2);
    // Outside production, text still runs: developers explore in GraphiQL.
    expect((await post(t, { query: '{ pets { totalCount } }' })).status).toBe(200);
    const unknown = await post(t, { documentId: `sha256:${sha256('{ pets { totalCount } }')}` });
    expect(unknown.body.errors?.[0]).toMatchObject({
      message: "No trusted document has this id; build the client against this server's manifest.",
      extensions: { code: 'UNKNOWN_DOCUMENT', status: 400 },
    });
  });

  it('in production runs only the listed documents: text is TRUSTED_DOCUMENTS_ONLY, and nothing runs', async ({ makeApp, tmp }) => {
    const t = await makeApp({ NODE_ENV: 'production', GRAPHQL_TRUSTED_DOCUMENTS: manifest(tmp, [LIST, CREATE]) });
    const text = await post(t, { query: CREATE, variables: { name: 'Sneaky' } });
    expect(text.status).toBe(400);
    expect(text.body.errors?.[0]?.extensions).toEqual({ code: 'TRUSTED_DOCUMENTS_ONLY', status: 400 });
    expect(await t.count('pets')).toBe(0);
    expect((await post(t, { documentId: `sha256:${sha256(CREATE)}`, variables: { name: 'Listed' } })).body.data).toMatchObject({
      createPet: { name: 'Listed' },
    });
  });

  it('on the streams too: a subscription runs by its id over SSE (POST, or GET ?documentId=), and text or an unknown id is refused alike', async ({
    makeApp,
    tmp,
  }) => {
    const t = await makeApp({ NODE_ENV: 'production', GRAPHQL_TRUSTED_DOCUMENTS: manifest(tmp, [CREATED]) });
    const origin = await t.listen();
    const headers = { ...t.auth, 'content-type': 'application/json', accept: 'text/event-stream' };
    const id = `sha256:${sha256(CREATED)}`;
    const streams = [
      await fetch(`${origin}/graphql`, { method: 'POST', headers, body: JSON.stringify({ documentId: id }) }),
      await fetch(`${origin}/graphql?documentId=${id}`, { headers }),
    ];
    await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Streamed', categoryId: 1 } });
    for (const res of streams) {
      expect(res.status).toBe(200);
      expect(await eventsUntil(res, /event: next/)).toMatch(/"petCreated":\{"name":"Streamed"\}/);
    }
    for (const [body, code] of [
      [{ query: CREATED }, 'TRUSTED_DOCUMENTS_ONLY'],
      [{ documentId: `sha256:${sha256('subscription { petCreated { id } }')}` }, 'UNKNOWN_DOCUMENT'],
    ] as const) {
      const res = await fetch(`${origin}/graphql`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(await eventsUntil(res, /event: complete/)).toContain(`"extensions":{"code":"${code}","status":400}`);
    }
  });

  it('refuses to start on a manifest whose ids are not its documents’ hashes, or that cannot be read', async ({ tmp, databaseUrl }) => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, JSON.stringify({ [sha256('{ a }')]: '{ b }' }));
    for (const [path, reason] of [
      [bad, `in '${bad}', '${sha256('{ a }')}' is not the SHA-256 of its document`],
      [join(tmp, 'missing.json'), 'ENOENT'],
    ] as const) {
      const run = await petstoreAsync(['serve'], { DATABASE_URL: databaseUrl, PORT: '0', GRAPHQL_TRUSTED_DOCUMENTS: path });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(reason);
    }
  });
});
