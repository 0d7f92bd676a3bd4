import { createApiKey, revokeOwnKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { listen, mcp } from '../helpers/mcp.ts';

// The API's subscriptions as something an agent listens to (2026-07-28): each subscription
// operation a resource template, its URIs resource subscriptions of subscriptions/listen, each
// event a notifications/resources/updated carrying its data; under the credential, its scopes,
// the per-key cap and revocation, as GraphQL's subscriptions are.

const PETS = 'petstore://subscriptions/pet_created?status=available';
const EVENT = 'io.petstore/event';

describe('subscriptions as resource subscriptions', () => {
  it('lists each subscription as a template, and says what listening gives', async ({ t }) => {
    const { body } = await mcp(t, 'resources/templates/list', {}, { era: 'modern' });
    expect(body.result?.resourceTemplates).toEqual([
      expect.objectContaining({
        uriTemplate: 'petstore://subscriptions/pet_created{?status}',
        name: 'pet_created',
        mimeType: 'application/json',
      }),
      expect.objectContaining({ uriTemplate: 'petstore://subscriptions/message_updated{?id}', name: 'message_updated' }),
    ]);
    const read = await mcp(t, 'resources/read', { uri: PETS });
    const described = JSON.parse((read.body.result?.contents as { text: string }[])[0]?.text ?? '{}') as Record<string, unknown>;
    expect(described).toMatchObject({
      listen: { method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: [PETS] } } },
      eventSchema: { properties: { petCreated: { properties: { name: { type: 'string' } } } } },
    });
  });

  it('sends each event as resources/updated with its data, filtered as the subscription is', async ({ t }) => {
    const listening = await listen(t, t.auth, { resourceSubscriptions: [PETS] });
    expect(listening.status).toBe(200);
    await expect.poll(() => listening.messages.length).toBe(1);
    expect(listening.messages[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { resourceSubscriptions: [PETS] } },
    });
    const add = (name: string, status: string) => t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1, status } });
    await add('Held', 'pending');
    await add('Rex', 'available');
    await expect.poll(() => listening.messages.length, { timeout: 5000 }).toBe(2);
    expect(listening.messages[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: {
        uri: PETS,
        _meta: {
          'io.modelcontextprotocol/subscriptionId': 'listen-1',
          [EVENT]: { petCreated: { id: '2', name: 'Rex', categoryId: 1, status: 'available' } },
        },
      },
    });
    await listening.cancel();
  });

  it('follows a message to its final status, then closes with the graceful result', async ({ t }) => {
    const sent = await t.call({ method: 'POST', url: '/messages', payload: { message: 'hi' } });
    const id = (sent.json() as { id: string }).id;
    const uri = `petstore://subscriptions/message_updated?id=${id}`;
    const listening = await listen(t, t.auth, { resourceSubscriptions: [uri] });
    await expect.poll(() => listening.messages.length).toBe(2);
    expect(listening.messages[1]).toMatchObject({ params: { uri, _meta: { [EVENT]: { messageUpdated: { id, status: 'queued' } } } } });
    await t.db
      .updateTable('messages')
      .set({ status: 'sent', updated_at: new Date(Date.now() + 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    await listening.ended;
    expect(listening.messages.at(-2)).toMatchObject({ params: { _meta: { [EVENT]: { messageUpdated: { id, status: 'sent' } } } } });
    expect(listening.messages.at(-1)).toMatchObject({ id: 'listen-1', result: { resultType: 'complete' } });
  });

  it('refuses before it streams: an unknown URI, bad variables, a scope missing, one past the cap; revocation ends it', async ({
    makeApp,
  }) => {
    const t = await makeApp({ SUBSCRIPTIONS_PER_KEY: '2' });
    const refused = async (uris: string[], headers = t.auth) => {
      const listening = await listen(t, headers, { resourceSubscriptions: uris });
      await listening.ended;
      return { status: listening.status, error: listening.messages[0]?.error as { code: number; data: { code: string } } | undefined };
    };
    expect(await refused(['petstore://subscriptions/nothing'])).toMatchObject({
      status: 200,
      error: { code: -32602, data: { code: 'RESOURCE_NOT_FOUND' } },
    });
    expect(await refused(['petstore://subscriptions/pet_created?status=lost'])).toMatchObject({
      status: 400,
      error: { data: { code: 'VALIDATION_FAILED' } },
    });
    const writer = { authorization: `Bearer ${(await createApiKey(t.db, 'writer', { scopes: ['petstore:write'] })).key}` };
    expect(await refused([PETS], writer)).toMatchObject({ status: 403, error: { data: { code: 'INSUFFICIENT_SCOPE' } } });
    // Each subscription of a listen counts against the key's cap (2), as a GraphQL subscription does: a listen of three is one too many.
    const { key, id } = await createApiKey(t.db, 'capped');
    const capped = { authorization: `Bearer ${key}` };
    const three = [PETS, 'petstore://subscriptions/pet_created', 'petstore://subscriptions/pet_created?status=sold'];
    expect(await refused(three, capped)).toMatchObject({
      status: 429,
      error: { data: { code: 'TOO_MANY_SUBSCRIPTIONS' } },
    });
    const kept = await listen(t, capped, { resourceSubscriptions: [PETS] });
    await expect.poll(() => kept.messages.length).toBe(1);
    const account = await t.db.selectFrom('api_keys').select('account_id').where('id', '=', id).executeTakeFirstOrThrow();
    await revokeOwnKey(t.db, account.account_id, id);
    await kept.ended;
    expect(kept.messages.at(-1)).toMatchObject({ id: 'listen-1', error: { data: { code: 'UNAUTHORIZED' } } });
  });
});
