import { describe, expect, it } from '../helpers/fixtures.ts';
import { total } from '../helpers/exposition.ts';
import { graphql } from '../helpers/graphql.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/webhook-receiver.ts';

// Where the receiver answers, the webhook timeout is far beyond any answer, so a loaded machine
// cannot turn a 500 into a timeout; only the timeout test (a receiver that never answers) has a short one.
const fast = {
  MESSAGE_DELIVERY: 'true',
  MESSAGE_POLL_MS: '20',
  MESSAGE_RETRY_BASE_MS: '50',
  MESSAGE_WEBHOOK_TIMEOUT_MS: '30000',
  MESSAGE_LEASE_MS: '60000',
};
const timingOut = { MESSAGE_WEBHOOK_TIMEOUT_MS: '300', MESSAGE_LEASE_MS: '5000' };
type Record_ = {
  id: string;
  status: string;
  attempts: number;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
  message: string;
};

async function send(app: TestApp, text: string): Promise<Record_> {
  const res = await app.call({ method: 'POST', url: '/messages', payload: { message: text } });
  expect(res.statusCode).toBe(201);
  return res.json();
}
const read = async (app: TestApp, id: string): Promise<Record_> => (await app.call({ url: `/messages/${id}` })).json();
const settled = (app: TestApp, id: string, status: string) =>
  waitFor(
    async () => {
      const record = await read(app, id);
      return record.status === status ? record : null;
    },
    60_000,
    `message ${id} to be ${status}`,
  );

describe('message delivery', () => {
  it('is measured: each attempt by transport and outcome, and the attempts a message took once it settles', async ({
    makeApp,
    webhook,
  }) => {
    const receiver = await webhook((_request, index) => (['fail', 'fail', 'ok'] as const)[index] ?? 'ok');
    const t = await makeApp({ ...fast, METRICS_PORT: '0', MESSAGE_WEBHOOK_URL: receiver.url });
    await settled(t, (await send(t, 'measured')).id, 'sent');
    const text = await t.scrape();
    const attempts = 'petstore_message_delivery_duration_seconds_count';
    expect(total(text, attempts, { transport: 'webhook', outcome: 'retry' })).toBe(2);
    expect(total(text, attempts, { transport: 'webhook', outcome: 'sent' })).toBe(1);
    expect(total(text, 'petstore_message_delivery_attempts_count', { outcome: 'sent' })).toBe(1);
    expect(total(text, 'petstore_message_delivery_attempts_sum', { outcome: 'sent' })).toBe(3);
    expect(total(text, 'petstore_messages_queued')).toBe(0);
    expect(total(text, 'petstore_messages_oldest_queued_age_seconds')).toBe(0);
  });

  it('delivers through the log transport by default: queued → sent', async ({ makeApp }) => {
    const t = await makeApp({ ...fast });
    const queued = await send(t, 'to the log');
    expect(queued.status).toBe('queued');
    const sent = await settled(t, queued.id, 'sent');
    expect(sent).toMatchObject({ attempts: 1, failureReason: null, message: 'to the log' });
    expect(sent.updatedAt >= sent.createdAt).toBe(true);
  });

  it('retries a webhook that fails, then drops the connection, then succeeds: sent after 3 attempts', async ({ makeApp, webhook }) => {
    const seenBetween: Record_[] = [];
    const receiver = await webhook(async (_request, index) => {
      if (index === 1) seenBetween.push(await read(t, String(_request.body.id)));
      return (['fail', 'drop', 'ok'] as const)[index] ?? 'ok';
    });
    const t = await makeApp({ ...fast, MESSAGE_WEBHOOK_URL: receiver.url });
    const queued = await send(t, 'through the webhook');
    const sent = await settled(t, queued.id, 'sent');
    expect(sent.attempts).toBe(3);
    expect(sent.failureReason).toBeNull();
    expect(receiver.received).toHaveLength(3);
    // Between attempts the record shows it is still queued, and why.
    expect(seenBetween[0]).toMatchObject({ status: 'queued', attempts: 2, failureReason: 'webhook answered HTTP 500' });
    expect((await read(t, queued.id)).failureReason).toBeNull();
    // Each POST carries the record as JSON, and the id to drop repeats by.
    for (const request of receiver.received) {
      expect(request.body).toMatchObject({ id: queued.id, message: 'through the webhook', status: 'queued' });
      expect(request.idempotencyKey).toBe(queued.id);
    }
  });

  it('gives up after MESSAGE_MAX_ATTEMPTS with status failed and the reason, visible on REST and GraphQL', async ({ makeApp, webhook }) => {
    const receiver = await webhook(() => 'fail');
    const t = await makeApp({ ...fast, MESSAGE_WEBHOOK_URL: receiver.url, MESSAGE_MAX_ATTEMPTS: '3' });
    const queued = await send(t, 'doomed');
    const failed = await settled(t, queued.id, 'failed');
    expect(failed.attempts).toBe(3);
    expect(failed.failureReason).toBe('webhook answered HTTP 500 (gave up after 3 attempts)');
    // Given up means given up. A fourth attempt would be due 200 ms after the third (the retry
    // delay doubles from 50 ms). Two more messages, one after the other, each fail through 50 +
    // 100 ms of retry delays: once both have given up, more than 200 ms of the worker's polls
    // have passed since 'doomed' did.
    for (const text of ['later', 'latest']) await settled(t, (await send(t, text)).id, 'failed');
    expect(receiver.received.filter((request) => request.body.message === 'doomed')).toHaveLength(3);
    const { body } = await graphql(t, `{ message(id: "${queued.id}") { status attempts failureReason } }`);
    expect(body.data?.message).toEqual({ status: 'failed', attempts: 3, failureReason: failed.failureReason });
  });

  it('names a timeout, a dropped connection and an unreachable webhook as the reason', async ({ makeApp, webhook }) => {
    const receiver = await webhook(() => 'hang');
    // The receiver never answers, so every attempt times out however slow the machine is.
    let t = await makeApp({ ...fast, ...timingOut, MESSAGE_WEBHOOK_URL: receiver.url, MESSAGE_MAX_ATTEMPTS: '1' });
    expect((await settled(t, (await send(t, 'slow')).id, 'failed')).failureReason).toMatch(/^webhook timed out after 300 ms/);
    await t.close();
    const closed = receiver.url;
    await receiver.close();
    t = await makeApp({ ...fast, MESSAGE_WEBHOOK_URL: closed, MESSAGE_MAX_ATTEMPTS: '1' });
    expect((await settled(t, (await send(t, 'nowhere')).id, 'failed')).failureReason).toMatch(/^webhook unreachable \(ECONNREFUSED\)/);
    await t.close();
    const dropping = await webhook(() => 'drop');
    t = await makeApp({ ...fast, MESSAGE_WEBHOOK_URL: dropping.url, MESSAGE_MAX_ATTEMPTS: '1' });
    expect((await settled(t, (await send(t, 'cut off')).id, 'failed')).failureReason).toMatch(/^webhook unreachable \(\w+\)/);
  });

  it('shows progress through GraphQL message(id)', async ({ makeApp }) => {
    const t = await makeApp({ ...fast });
    const { body } = await graphql(t, 'mutation { sendMessage(message: "watch me") { id status } }');
    const id = (body.data?.sendMessage as { id: string }).id;
    const done = await waitFor(async () => {
      const r = await graphql(t, `{ message(id: "${id}") { status attempts } }`);
      const message = r.body.data?.message as { status: string; attempts: number };
      return message.status === 'sent' ? message : null;
    });
    expect(done).toEqual({ status: 'sent', attempts: 1 });
  });
});
