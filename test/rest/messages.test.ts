import { describe, expect, it } from '../helpers/fixtures.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

const send = (t: TestApp, payload: unknown, headers: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: '/messages', payload: payload as string, headers });

describe('POST /messages (quickstart, outside /v1)', () => {
  it('queues the message: 201, the record, a Location, and it is stored', async ({ t }) => {
    const before = Date.now();
    const res = await send(t, { message: 'Hello from the quickstart' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['attempts', 'createdAt', 'failureReason', 'id', 'message', 'status', 'updatedAt']);
    expect(body.attempts).toBe(0);
    expect(body.failureReason).toBeNull();
    expect(body.id).toMatch(/^msg_\d+$/);
    expect(body.message).toBe('Hello from the quickstart');
    expect(body.status).toBe('queued');
    expect(body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(body.createdAt)).toBeGreaterThanOrEqual(before - 1);
    expect(body.updatedAt).toBe(body.createdAt);
    expect(res.headers.location).toBe(`/messages/${body.id}`);

    const read = await t.call({ url: res.headers.location as string });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body);
  });

  it('is not served under /v1', async ({ t }) => {
    const res = await t.call({ method: 'POST', url: '/v1/messages', payload: { message: 'x' } });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res, 'NOT_FOUND');
  });

  const invalid: [string, string, Record<string, string>, string][] = [
    ['invalid JSON', '{"message": "hi"', { 'content-type': 'application/json' }, 'INVALID_JSON'],
    ['a missing message', '{}', { 'content-type': 'application/json' }, 'VALIDATION_FAILED'],
    ['a number as message', '{"message": 5}', { 'content-type': 'application/json' }, 'VALIDATION_FAILED'],
    ['a null message', '{"message": null}', { 'content-type': 'application/json' }, 'VALIDATION_FAILED'],
    ['an empty message', '{"message": ""}', { 'content-type': 'application/json' }, 'VALIDATION_FAILED'],
    [
      'a message over 4096 characters',
      JSON.stringify({ message: 'x'.repeat(4097) }),
      { 'content-type': 'application/json' },
      'VALIDATION_FAILED',
    ],
    ['an unknown field', '{"message": "hi", "to": "+1"}', { 'content-type': 'application/json' }, 'VALIDATION_FAILED'],
    ['text/plain', '{"message": "hi"}', { 'content-type': 'text/plain' }, 'INVALID_CONTENT_TYPE'],
    ['a form body', 'message=hi', { 'content-type': 'application/x-www-form-urlencoded' }, 'INVALID_CONTENT_TYPE'],
  ];
  it.for(invalid)('refuses %s with 400, storing nothing', async ([_label, payload, headers, code], { t }) => {
    const before = await t.count('messages');
    const res = await send(t, payload, headers);
    expect(res.statusCode).toBe(400);
    expectErrorBody(res, code);
    expect(await t.count('messages')).toBe(before);
  });

  it('accepts application/json with a charset parameter', async ({ t }) => {
    const res = await send(t, '{"message":"charset"}', { 'content-type': 'application/json; charset=utf-8' });
    expect(res.statusCode).toBe(201);
  });
});

describe('GET /messages/{id}', () => {
  it('answers 404 for an unknown id and 400 for a malformed one', async ({ t }) => {
    const missing = await t.call({ url: '/messages/msg_123' });
    expect(missing.statusCode).toBe(404);
    expectErrorBody(missing, 'MESSAGE_NOT_FOUND');
    const malformed = await t.call({ url: '/messages/hello' });
    expect(malformed.statusCode).toBe(400);
    expectErrorBody(malformed, 'VALIDATION_FAILED');
  });

  it("hides another account's message as 404", async ({ t }) => {
    const sent = (await send(t, { message: 'private' })).json();
    const other = await createApiKey(t.db, 'someone-else');
    const res = await t.app.inject({ url: `/messages/${sent.id}`, headers: { authorization: `Bearer ${other.key}` } });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res, 'MESSAGE_NOT_FOUND');
  });
});
