import { connect } from 'node:net';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { petstore, petstoreAsync } from '../helpers/cli.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { subscribe } from '../helpers/sse-client.ts';
import type { Subscription } from '../helpers/sse-client.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { ENGINE, execute } from '../helpers/test-database.ts';
import { waitFor } from '../helpers/webhook-receiver.ts';

const PET_CREATED = 'subscription($s: PetStatus) { petCreated(status: $s) { id name status } }';
const MESSAGE_UPDATED = 'subscription($id: ID!) { messageUpdated(id: $id) { id status attempts failureReason } }';

const createPet = (t: TestApp, name: string, status = 'available') =>
  t.call({ method: 'POST', url: '/v1/pets', payload: { name, categoryId: 1, status } });
/** `count` pets committed in one statement from outside the server, as a bulk import would. */
async function bulkPets(t: TestApp, count: number): Promise<void> {
  const rows =
    ENGINE === 'sqlite'
      ? `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count}) select i from n`
      : `select i from generate_series(1, ${count}) as n(i)`;
  // Names of 100 characters: the largest events a subscriber can ask for.
  const columns = `'bulk ' || i || '${'x'.repeat(90)}', 1, 'available', '2026-01-01T00:00:00.000Z'`;
  await execute(t.databaseUrl, `insert into pets (name, category_id, status, created_at) select ${columns} from (${rows}) as rows`);
}

const payload = async (sub: Subscription, field: string) => {
  const event = await sub.next();
  expect(event.event).toBe('next');
  return event.data?.data?.[field];
};

describe('petCreated over SSE', () => {
  it('pushes each new pet from either face, in order, filtered by status, with heartbeats between', async ({ t }) => {
    const origin = await t.listen();
    await createPet(t, 'before-subscribing');
    const all = await subscribe(origin, PET_CREATED, {}, t.auth);
    const pending = await subscribe(origin, PET_CREATED, { s: 'pending' }, t.auth);
    expect(all.status).toBe(200);
    expect(all.contentType).toMatch(/^text\/event-stream/);

    await createPet(t, 'rest-1');
    await graphql(t, 'mutation { createPet(input: { name: "gql-2", categoryId: 1, status: pending }) { id } }');
    await createPet(t, 'rest-3', 'pending');

    expect(await payload(all, 'petCreated')).toMatchObject({ name: 'rest-1', status: 'available' });
    expect(await payload(all, 'petCreated')).toMatchObject({ name: 'gql-2', status: 'pending' });
    expect(await payload(all, 'petCreated')).toMatchObject({ name: 'rest-3' });
    expect(await payload(pending, 'petCreated')).toMatchObject({ name: 'gql-2' });
    expect(await payload(pending, 'petCreated')).toMatchObject({ name: 'rest-3' });
    // Heartbeats: a comment line at once and then on an interval (12 s; 300 ms under NODE_ENV=test).
    await waitFor(async () => all.pings() >= 2, 30_000, 'heartbeats');
    all.close();
    pending.close();
  });

  it('needs a key: 401 and UNAUTHORIZED, as every operation', async ({ t }) => {
    const origin = await t.listen();
    const sub = await subscribe(origin, PET_CREATED);
    expect(sub.status).toBe(401);
    const event = await sub.next();
    expect(event.data?.errors?.[0]?.extensions).toEqual({ code: 'UNAUTHORIZED', status: 401 });
  });
});

describe('from when a subscription delivers', () => {
  /** Opens petCreated over HTTP asking for `accept`; reads as the bytes come. */
  async function open(t: TestApp, accept: string) {
    const abort = new AbortController();
    const res = await fetch(`${await t.listen()}/graphql`, {
      method: 'POST',
      headers: { ...t.auth, 'content-type': 'application/json', accept },
      body: JSON.stringify({ query: 'subscription { petCreated { name } }' }),
      signal: abort.signal,
    });
    if (!res.body) throw new Error('no stream');
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    return {
      /** Reads until `seen` holds, returning everything read so far. */
      async until(seen: (text: string) => boolean): Promise<string> {
        while (!seen(text)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the stream ended: ${text}`);
          text += decoder.decode(value, { stream: true });
        }
        return text;
      },
      close: () => abort.abort(),
    };
  }

  it.for([
    { name: 'SSE', accept: 'text/event-stream', first: (text: string) => text.startsWith(':') },
    {
      name: 'multipart (Apollo Client)',
      accept: 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0,application/json',
      first: (text: string) => text.includes('{}'),
    },
  ])('$name: every pet committed after the first byte arrives, each event whole as it arrives', async ({ accept, first }, { makeApp }) => {
    const t = await makeApp({ SUBSCRIPTION_POLL_MS: '20' });
    const stream = await open(t, accept);
    // The first byte is sent once the subscription listens: a pet created the moment it arrives is an event.
    await stream.until(first);
    await createPet(t, 'right-after-first-byte');
    const text = await stream.until((read) => read.includes('right-after-first-byte'));
    // The event's part arrives with what ends it: a client shows it now, not at the next heartbeat.
    const after = text.slice(text.indexOf('right-after-first-byte'));
    expect(after).toMatch(accept === 'text/event-stream' ? /\n\n$/ : /\r\n--graphql$/);
    stream.close();
  });
});

describe('messageUpdated over SSE', () => {
  it('pushes the message now, then each change of its delivery, and ends when it is final', async ({ makeApp, webhook }) => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The first attempt waits until the test subscribed, then fails; the retry succeeds.
    const receiver = await webhook(async (_request, index) => (index === 0 ? gate.then(() => 'fail' as const) : 'ok'));
    const t = await makeApp({
      MESSAGE_DELIVERY: 'true',
      MESSAGE_WEBHOOK_URL: receiver.url,
      MESSAGE_POLL_MS: '20',
      MESSAGE_RETRY_BASE_MS: '300',
      SUBSCRIPTION_POLL_MS: '20',
    });
    const origin = await t.listen();
    const sent = (await t.call({ method: 'POST', url: '/messages', payload: { message: 'watch me' } })).json() as { id: string };
    const sub = await subscribe(origin, MESSAGE_UPDATED, { id: sent.id }, t.auth);
    const first = (await payload(sub, 'messageUpdated')) as { status: string };
    expect(first).toMatchObject({ id: sent.id, status: 'queued' });
    open();
    const seen = [first as { status: string; attempts: number }];
    for (let event = await sub.next(); event.event !== 'complete'; event = await sub.next()) {
      seen.push(event.data?.data?.messageUpdated as { status: string; attempts: number });
    }
    expect(seen.at(-1)).toEqual({ id: sent.id, status: 'sent', attempts: 2, failureReason: null });
    // In order, each state once: attempts never go back, and only the last is final.
    expect(seen.map((m) => m.attempts)).toEqual(seen.map((m) => m.attempts).sort((x, y) => x - y));
    expect(new Set(seen.map((m) => JSON.stringify(m))).size).toBe(seen.length);
    expect(seen.slice(0, -1).every((m) => m.status === 'queued')).toBe(true);
    await sub.ended;
  });

  it('ends at once, after one event, for a message already final', async ({ makeApp, webhook }) => {
    const receiver = await webhook(() => 'ok');
    const t = await makeApp({ MESSAGE_DELIVERY: 'true', MESSAGE_WEBHOOK_URL: receiver.url, MESSAGE_POLL_MS: '20' });
    const origin = await t.listen();
    const sent = (await t.call({ method: 'POST', url: '/messages', payload: { message: 'done' } })).json() as { id: string };
    await waitFor(async () => (await t.call({ url: `/messages/${sent.id}` })).json().status === 'sent', 30_000, 'delivery');
    const sub = await subscribe(origin, MESSAGE_UPDATED, { id: sent.id }, t.auth);
    expect(await payload(sub, 'messageUpdated')).toMatchObject({ status: 'sent' });
    expect((await sub.next()).event).toBe('complete');
  });

  it("is MESSAGE_NOT_FOUND for another account's message, and a malformed id is VALIDATION_FAILED", async ({ t }) => {
    const origin = await t.listen();
    const sent = (await t.call({ method: 'POST', url: '/messages', payload: { message: 'mine' } })).json() as { id: string };
    const other = { authorization: `Bearer ${(await createApiKey(t.db, 'sse-other')).key}` };
    const theirs = await subscribe(origin, MESSAGE_UPDATED, { id: sent.id }, other);
    expect(theirs.status).toBe(404);
    expect((await theirs.next()).data?.errors?.[0]?.extensions).toEqual({ code: 'MESSAGE_NOT_FOUND', status: 404 });
    const bad = await subscribe(origin, MESSAGE_UPDATED, { id: 'abc' }, t.auth);
    expect(bad.status).toBe(400);
    expect((await bad.next()).data?.errors?.[0]).toMatchObject({
      message: "Argument 'id' must look like msg_<digits>.",
      extensions: { code: 'VALIDATION_FAILED', status: 400 },
    });
  });
});

describe('limits and shutdown', () => {
  it('caps open subscriptions per key (TOO_MANY_SUBSCRIPTIONS) and frees a slot when one closes', async ({ makeApp }) => {
    const t = await makeApp({ SUBSCRIPTIONS_PER_KEY: '2' });
    const origin = await t.listen();
    const first = await subscribe(origin, PET_CREATED, {}, t.auth);
    const second = await subscribe(origin, PET_CREATED, {}, t.auth);
    const third = await subscribe(origin, PET_CREATED, {}, t.auth);
    // Refused before any stream started: the answer's status is the refusal's, with a hint when to retry.
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await third.next()).data?.errors?.[0]).toMatchObject({
      message: 'At most 2 subscriptions may be open per key; close one first.',
      extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', status: 429 },
    });
    // Another key has its own budget.
    const other = { authorization: `Bearer ${(await createApiKey(t.db, 'sse-cap')).key}` };
    const theirs = await subscribe(origin, PET_CREATED, {}, other);
    first.close();
    const again = await waitFor(
      async () => {
        const sub = await subscribe(origin, PET_CREATED, {}, t.auth);
        await createPet(t, 'probe');
        const event = await sub.next();
        if (event.data?.errors) return null;
        return sub;
      },
      30_000,
      'a slot to free up',
    );
    expect((await payload(theirs, 'petCreated')) ?? null).toMatchObject({ name: 'probe' });
    for (const sub of [second, again, theirs]) sub.close();
  });

  it('ends a subscriber that fell 1,000 events behind with a last event saying why, then complete', async ({ makeApp }) => {
    const t = await makeApp({ SUBSCRIPTION_POLL_MS: '20', METRICS_PORT: '0' });
    const origin = new URL(await t.listen());
    // A client that stops reading: a raw socket, paused once the stream has begun.
    const socket = connect(Number(origin.port), origin.hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => void (received += chunk.toString('utf8')));
    await new Promise((resolve) => socket.once('connect', resolve));
    // Each event about 1.7 KB: the name 15 times.
    const aliases = Array.from({ length: 15 }, (_, i) => `a${i}: name`).join(' ');
    const body = JSON.stringify({ query: `subscription { petCreated { id ${aliases} } }` });
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\n` +
        `Accept: text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    try {
      // The stream has begun when its first heartbeat (a `:` comment, chunked) arrives.
      await expect.poll(() => /\r\n\r\n[0-9a-f]+\r\n:/.test(received), { timeout: 30_000 }).toBe(true);
      socket.pause();
      // 12,000 pets committed at once: 20 MB of events, twice what the kernel may buffer for a reader that does not read.
      await bulkPets(t, 12_000);
      await expect.poll(async () => /^petstore_subscriptions_open 0$/m.test(await t.scrape()), { timeout: 60_000 }).toBe(true);
      socket.resume();
      await expect.poll(() => received.includes('event: complete'), { timeout: 60_000 }).toBe(true);
      const events = [...received.matchAll(/^event: (\w+)\r?\ndata: ?(.*)$/gm)].map(([, event, data]) => ({ event, data }));
      expect(events.at(-1)?.event).toBe('complete');
      expect(JSON.parse(events.at(-2)?.data ?? '{}')).toEqual({
        data: null,
        errors: [
          expect.objectContaining({
            message: 'This subscription fell 1000 events behind and has ended; subscribe again, and read events as they come.',
            extensions: { code: 'SUBSCRIBER_TOO_SLOW', status: 429 },
          }),
        ],
      });
    } finally {
      socket.destroy();
    }
  });

  it('holds no slot for a subscription refused with 406, whatever the client asked for instead of a stream', async ({ makeApp }) => {
    const t = await makeApp({ SUBSCRIPTIONS_PER_KEY: '2' });
    const origin = await t.listen();
    // Each event about 1.7 KB: the name 15 times.
    const aliases = Array.from({ length: 15 }, (_, i) => `a${i}: name`).join(' ');
    const body = JSON.stringify({ query: `subscription { petCreated { id ${aliases} } }` });
    const refusals = [
      ...['text/html', 'application/json', 'application/graphql-response+json', 'image/png'].map(
        (accept) => () =>
          fetch(`${origin}/graphql`, { method: 'POST', headers: { ...t.auth, 'content-type': 'application/json', accept }, body }),
      ),
      () => fetch(`${origin}/graphql?query=${encodeURIComponent(PET_CREATED)}`, { headers: { ...t.auth, accept: 'application/json' } }),
    ];
    for (let round = 0; round < 3; round++) {
      for (const refuse of refusals) {
        const refused = await refuse();
        expect(refused.status).toBe(406);
        // The Error body, as for any 406 at /graphql, naming what a subscription is answered as.
        expect(await refused.json()).toEqual({ code: 'NOT_ACCEPTABLE', status: 406, message: expect.stringMatching(/text\/event-stream/) });
      }
    }
    // Both of the key's slots are still free.
    const subs = [await subscribe(origin, PET_CREATED, {}, t.auth), await subscribe(origin, PET_CREATED, {}, t.auth)];
    expect(subs.map((s) => s.status)).toEqual([200, 200]);
    await createPet(t, 'after-refusals');
    for (const sub of subs) expect(await payload(sub, 'petCreated')).toMatchObject({ name: 'after-refusals' });
    for (const sub of subs) sub.close();
  });

  it('ends open streams cleanly when the server drains, so shutdown does not wait for them', async ({ makeApp }) => {
    const t = await makeApp();
    const origin = await t.listen();
    const sub = await subscribe(origin, PET_CREATED, {}, t.auth);
    await t.app.drainAndClose();
    expect((await sub.next()).event).toBe('complete');
    await sub.ended;
  });
});

describe('a key that stops being valid ends its streams', () => {
  const keyOf = async (t: TestApp, name: string) => {
    const made = (await t.call({ method: 'POST', url: '/v1/keys', payload: { name } })).json() as { id: number; key: string };
    return { id: made.id, auth: { authorization: `Bearer ${made.key}` } };
  };
  const expectEndedBecause = async (sub: Subscription, reason: RegExp) => {
    const last = await sub.next();
    expect(last.event).toBe('next');
    expect(last.data?.errors?.[0]).toMatchObject({
      message: expect.stringMatching(reason),
      extensions: { code: 'UNAUTHORIZED', status: 401 },
    });
    expect((await sub.next()).event).toBe('complete');
    await sub.ended;
  };

  it('revoked over the API: every open stream of that key gets a last error event saying so, then ends; other keys go on', async ({
    t,
  }) => {
    const origin = await t.listen();
    const doomed = await keyOf(t, 'doomed');
    const pets = await subscribe(origin, PET_CREATED, {}, doomed.auth);
    const sent = (await t.call({ method: 'POST', url: '/messages', payload: { message: 'watched' } })).json() as { id: string };
    const message = await subscribe(origin, MESSAGE_UPDATED, { id: sent.id }, doomed.auth);
    expect(await payload(message, 'messageUpdated')).toMatchObject({ id: sent.id, status: 'queued' });
    const bystander = await subscribe(origin, PET_CREATED, {}, t.auth);

    await createPet(t, 'seen-by-both');
    expect(await payload(pets, 'petCreated')).toMatchObject({ name: 'seen-by-both' });
    expect((await t.call({ method: 'DELETE', url: `/v1/keys/${doomed.id}` })).statusCode).toBe(200);
    await expectEndedBecause(pets, /API key was revoked/);
    await expectEndedBecause(message, /API key was revoked/);

    await createPet(t, 'after-revocation');
    expect(await payload(bystander, 'petCreated')).toMatchObject({ name: 'seen-by-both' });
    expect(await payload(bystander, 'petCreated')).toMatchObject({ name: 'after-revocation' });
    bystander.close();
  });

  it("disabled with the CLI: the account's streams end saying the account is disabled", async ({ t }) => {
    const origin = await t.listen();
    const made = await petstoreAsync(['keys', 'create', '--account', 'soon-disabled'], { DATABASE_URL: t.databaseUrl });
    const key = made.stdout.trim().split('\n').at(-1) ?? '';
    const sub = await subscribe(origin, PET_CREATED, {}, { authorization: `Bearer ${key}` });
    expect(sub.status).toBe(200);
    const disabled = await petstoreAsync(['accounts', 'disable', 'soon-disabled'], { DATABASE_URL: t.databaseUrl });
    expect(disabled.status).toBe(0);
    await expectEndedBecause(sub, /account is disabled/);
  });
});

describe('across processes on one database', { timeout: 180_000 }, () => {
  it('a pet created through one server reaches a subscriber of another', async ({ databaseUrl, serve }) => {
    const env = { DATABASE_URL: databaseUrl, MESSAGE_DELIVERY: 'false', SUBSCRIPTION_POLL_MS: '50' };
    const key = petstore(['keys', 'create', '--account', 'live'], env).stdout.trim().split('\n').at(-1) ?? '';
    const auth = { authorization: `Bearer ${key}` };
    const [a, b] = [await serve(env), await serve(env)];
    const sub = await subscribe(a.origin, PET_CREATED, {}, auth);
    const created = await fetch(`${b.origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'from-b', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    expect(await payload(sub, 'petCreated')).toMatchObject({ name: 'from-b' });
    sub.close();
  });
});
