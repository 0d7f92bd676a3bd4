import { petstore } from '../helpers/cli.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { waitFor } from '../helpers/webhook-receiver.ts';

/** One database for the test's servers, with a key made by the CLI. */
function sharedDatabase(databaseUrl: string, extra: Record<string, string> = {}) {
  const env = { DATABASE_URL: databaseUrl, ...extra };
  const key = petstore(['keys', 'create', '--account', 'multi'], env).stdout.trim().split('\n').at(-1) ?? '';
  return { env, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } };
}

describe('two server processes on one database', { timeout: 180_000 }, () => {
  it('deliver every message exactly once between them', async ({ databaseUrl, serve, webhook }) => {
    const deliveries = new Map<string, number>();
    const receiver = await webhook((request) => {
      const id = String(request.body.id);
      deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
      return 'ok';
    });
    const { env, headers } = sharedDatabase(databaseUrl, { MESSAGE_WEBHOOK_URL: '', MESSAGE_POLL_MS: '10' });
    const withHook = { ...env, MESSAGE_WEBHOOK_URL: receiver.url };
    const [a, b] = [await serve(withHook), await serve(withHook)];
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const server = i % 2 ? a : b;
      const res = await fetch(`${server.origin}/messages`, { method: 'POST', headers, body: JSON.stringify({ message: `m${i}` }) });
      ids.push(((await res.json()) as { id: string }).id);
    }
    await waitFor(async () => ids.every((id) => deliveries.has(id)), 60_000, 'all deliveries');
    await new Promise((r) => setTimeout(r, 300));
    expect([...deliveries].filter(([, times]) => times !== 1)).toEqual([]);
    expect(deliveries.size).toBe(40);
  });

  it('let exactly one of concurrent orders for one pet succeed', async ({ databaseUrl, serve }) => {
    const { env, headers } = sharedDatabase(databaseUrl, { MESSAGE_DELIVERY: 'false' });
    const [a, b] = [await serve(env), await serve(env)];
    for (let round = 0; round < 5; round++) {
      const pet = (await (
        await fetch(`${a.origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `contested-${round}`, categoryId: 1 }) })
      ).json()) as { id: number };
      const attempts = Array.from({ length: 8 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).origin}/v1/store/orders`, { method: 'POST', headers, body: JSON.stringify({ petId: pet.id }) }).then(
          (r) => r.status,
        ),
      );
      const statuses = (await Promise.all(attempts)).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    }
  });
});

describe('a crash mid-delivery', { timeout: 180_000 }, () => {
  it('leaves the message to be delivered after a restart, not lost', async ({ databaseUrl, serve, webhook }) => {
    let firstSeen = false;
    const receiver = await webhook((_request, index) => {
      if (index === 0) firstSeen = true;
      return index === 0 ? 'hang' : 'ok';
    });
    const { env, headers } = sharedDatabase(databaseUrl, { MESSAGE_WEBHOOK_URL: '' });
    const crashy = {
      ...env,
      MESSAGE_WEBHOOK_URL: receiver.url,
      MESSAGE_WEBHOOK_TIMEOUT_MS: '1000',
      MESSAGE_LEASE_MS: '1500',
      MESSAGE_POLL_MS: '20',
    };
    const first = await serve(crashy);
    const sent = (await (
      await fetch(`${first.origin}/messages`, { method: 'POST', headers, body: JSON.stringify({ message: 'survive' }) })
    ).json()) as { id: string };
    await waitFor(async () => firstSeen, 60_000, 'the first delivery attempt');
    // The server dies while the webhook still holds the request.
    expect(await first.stop('SIGKILL')).toBeNull();

    const second = await serve(crashy);
    const record = await waitFor(
      async () => {
        const r = (await (await fetch(`${second.origin}/messages/${sent.id}`, { headers })).json()) as { status: string; attempts: number };
        return r.status === 'sent' ? r : null;
      },
      60_000,
      'redelivery',
    );
    expect(record.attempts).toBe(2);
    // At least once: the retry carries the same id for the receiver to drop the repeat.
    expect(receiver.received.map((r) => r.idempotencyKey)).toEqual([sent.id, sent.id]);
  });
});
