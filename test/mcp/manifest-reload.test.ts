import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiKey, revokeOwnKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { listen, mcp } from '../helpers/mcp.ts';
import type { TestApp } from '../helpers/test-app.ts';

// The manifest reloaded without a restart (its file changed, or SIGHUP): the tools are built
// again, a 2026-07-28 client listening with subscriptions/listen hears `tools/list_changed`, and
// a broken manifest is refused with the one in use kept.

const idOf = (text: string) => createHash('sha256').update(text).digest('hex');
const FIRST = 'query First { pets(first: 1) { totalCount } }';
const SECOND = '"Counts the orders." query Second { orders { totalCount } }';

function writeManifest(path: string, texts: string[]): void {
  writeFileSync(path, JSON.stringify(Object.fromEntries(texts.map((text) => [`sha256:${idOf(text)}`, text]))));
}

const toolNames = async (t: TestApp) => ((await mcp(t, 'tools/list')).body.result?.tools as { name: string }[]).map((tool) => tool.name);

describe('a manifest reloaded while serving', () => {
  it('rebuilds the tools, tells listeners, runs the new documents, and refuses a broken file, keeping the old', async ({
    makeApp,
    tmp,
  }) => {
    const path = join(tmp, 'persisted-documents.json');
    writeManifest(path, [FIRST]);
    const lines: string[] = [];
    const t = await makeApp(
      { GRAPHQL_TRUSTED_DOCUMENTS: path, LOG_LEVEL: 'info' },
      { logStream: { write: (line) => void lines.push(line) } },
    );
    expect(await toolNames(t)).toEqual(['First']);
    const listening = await listen(t);
    expect(listening.status).toBe(200);
    expect(listening.contentType).toBe('text/event-stream');
    await expect.poll(() => listening.messages.length).toBe(1);
    expect(listening.messages[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
    });
    const byId = (text: string) =>
      t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { ...t.auth, 'content-type': 'application/json' },
        payload: { documentId: idOf(text) },
      });
    expect((await byId(SECOND)).json().errors[0].extensions.code).toBe('UNKNOWN_DOCUMENT');

    // The file changes (as a deploy replaces it): within the poll, the new manifest is in effect.
    writeManifest(path, [FIRST, SECOND]);
    await expect.poll(() => toolNames(t), { timeout: 5000 }).toEqual(['First', 'Second']);
    await expect.poll(() => listening.messages.length).toBe(2);
    expect(listening.messages[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
    });
    expect((await byId(SECOND)).json()).toEqual({ data: { orders: { totalCount: 0 } } });
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; added?: number });
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'trusted documents: the manifest was reloaded', added: 1, removed: 0 }));

    // A broken file is refused, logged, and the manifest in use stays; nothing is told.
    writeFileSync(path, '{ "sha256:00": "query Broken { pets { totalCount } }" }');
    expect(t.app.reloadManifest()).toBe(false);
    expect(lines.map((line) => JSON.parse(line) as { msg: string }).map((line) => line.msg)).toContainEqual(
      expect.stringMatching(
        /^trusted documents: the manifest changed but is refused, the one in use is kept: in '.*', 'sha256:00' is not the SHA-256 of its document\.$/,
      ),
    );
    expect(await toolNames(t)).toEqual(['First', 'Second']);
    expect((await byId(SECOND)).statusCode).toBe(200);
    // Removed from the manifest: neither a tool nor a document any more.
    writeManifest(path, [SECOND]);
    expect(t.app.reloadManifest()).toBe(true);
    expect(await toolNames(t)).toEqual(['Second']);
    expect((await byId(FIRST)).json().errors[0].extensions.code).toBe('UNKNOWN_DOCUMENT');
    await expect.poll(() => listening.messages.length).toBe(3);
    await listening.cancel();
  });

  it('holds a listener to its credential: the cap per key, revocation ending it, shutdown closing it gracefully', async ({
    makeApp,
    tmp,
  }) => {
    const path = join(tmp, 'persisted-documents.json');
    writeManifest(path, [FIRST]);
    const t = await makeApp({ GRAPHQL_TRUSTED_DOCUMENTS: path, SUBSCRIPTIONS_PER_KEY: '1' });
    const { key, id } = await createApiKey(t.db, 'listener');
    const auth = { authorization: `Bearer ${key}` };
    const first = await listen(t, auth);
    await expect.poll(() => first.messages.length).toBe(1);
    const second = await listen(t, auth);
    expect(second.status).toBe(429);
    await second.ended;
    expect(second.messages).toMatchObject([{ id: 'listen-1', error: { data: { code: 'TOO_MANY_SUBSCRIPTIONS', status: 429 } } }]);
    // Revoked: the stream ends with an error saying why, and the key's place is given back.
    await revokeOwnKey(
      t.db,
      (await t.db.selectFrom('api_keys').select('account_id').where('id', '=', id).executeTakeFirstOrThrow()).account_id,
      id,
    );
    await first.ended;
    expect(first.messages.at(-1)).toMatchObject({ jsonrpc: '2.0', id: 'listen-1', error: { data: { code: 'UNAUTHORIZED' } } });
    // Asking for nothing this server sends: acknowledged empty, and closed at once with the graceful result.
    const nothing = await listen(t, t.auth, { resourcesListChanged: true });
    await nothing.ended;
    expect(nothing.messages.map((message) => message.method ?? 'result')).toEqual(['notifications/subscriptions/acknowledged', 'result']);
    expect(nothing.messages[0]).toMatchObject({ params: { notifications: {} } });
    // The server going away (SIGTERM's drain): the graceful result, naming the subscription and the server, so the client listens elsewhere.
    const kept = await listen(t);
    await expect.poll(() => kept.messages.length).toBe(1);
    await t.app.drainAndClose();
    await kept.ended;
    expect(kept.messages.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 'listen-1',
      result: {
        resultType: 'complete',
        _meta: {
          'io.modelcontextprotocol/subscriptionId': 'listen-1',
          'io.modelcontextprotocol/serverInfo': expect.objectContaining({ name: 'petstore-gateway' }),
        },
      },
    });
  });
});
