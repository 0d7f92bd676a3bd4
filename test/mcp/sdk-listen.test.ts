import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { connectSdk } from '../helpers/mcp.ts';

// subscriptions/listen as the official SDK 2.x client opens it (Client.listen, 2026-07-28): the
// API's subscriptions as resource subscriptions, and the tool list's changes, each delivered to
// the client's notification handlers.

const idOf = (text: string) => createHash('sha256').update(text).digest('hex');

describe('SDK 2.x (2026-07-28) listening', () => {
  it('hears each new pet as resources/updated with its data, and a reloaded tool list as tools/list_changed', async ({ makeApp, tmp }) => {
    const path = join(tmp, 'persisted-documents.json');
    const documents = (texts: string[]) => JSON.stringify(Object.fromEntries(texts.map((text) => [idOf(text), text])));
    const watch = 'subscription pet_created($status: PetStatus) { petCreated(status: $status) { id name status } }';
    writeFileSync(path, documents([watch, 'query First { pets { totalCount } }']));
    const t = await makeApp({ GRAPHQL_TRUSTED_DOCUMENTS: path });
    const client = (await connectSdk('SDK 2.x (2026-07-28)', `${await t.listen()}/mcp`, t.auth)) as unknown as Client;
    const updates: { uri: string; _meta?: Record<string, unknown> }[] = [];
    let toolsChanged = 0;
    client.setNotificationHandler('notifications/resources/updated', (notification) => void updates.push(notification.params));
    client.setNotificationHandler('notifications/tools/list_changed', () => void toolsChanged++);
    const uri = 'petstore://subscriptions/pet_created?status=available';
    try {
      const subscription = await client.listen({ resourceSubscriptions: [uri], toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [uri], toolsListChanged: true });
      await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Rex', categoryId: 1 } });
      await expect.poll(() => updates.length, { timeout: 5000 }).toBe(1);
      expect(updates[0]).toMatchObject({
        uri,
        _meta: { 'io.petstore/event': { petCreated: { id: '1', name: 'Rex', status: 'available' } } },
      });
      writeFileSync(path, documents([watch, 'query First { pets { totalCount } }', 'query Second { orders { totalCount } }']));
      expect(t.app.reloadManifest()).toBe(true);
      await expect.poll(() => toolsChanged).toBe(1);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['First', 'Second']);
      await subscription.close();
      expect(await subscription.closed).toBe('local');
    } finally {
      await client.close();
    }
  });
});
