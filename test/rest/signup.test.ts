import { describe, expect, it } from '../helpers/fixtures.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

const signUp = (t: TestApp, payload: unknown, remoteAddress = '198.51.100.7', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/signup', payload: payload as object, remoteAddress, headers });

describe('POST /signup', () => {
  it('is absent when SIGNUP is not open: 404 as for any unknown route, and not in the OpenAPI document', async ({ t }) => {
    const res = await signUp(t, { account: 'alice' });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res, 'NOT_FOUND');
    expect(res.body).toBe((await t.app.inject({ method: 'POST', url: '/signin', payload: {} })).body.replace('/signin', '/signup'));
    expect(await t.count('accounts')).toBe(1);
    expect(Object.keys((await t.app.inject({ url: '/v1/openapi.json' })).json().paths)).not.toContain('/signup');
  });

  it('with SIGNUP=open creates the account and its first key, shown once, which works at once', async ({ makeApp }) => {
    const t = await makeApp({ SIGNUP: 'open' });
    const res = await signUp(t, { account: 'alice' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.account).toEqual({ name: 'alice', createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    expect(body.apiKey).toMatchObject({ name: null, lastUsedAt: null, revokedAt: null, createdAt: body.account.createdAt });
    expect(body.apiKey.key).toMatch(/^psk_[A-Za-z0-9]{40}$/);

    const mine = await t.app.inject({ url: '/v1/keys', headers: { authorization: `Bearer ${body.apiKey.key}` } });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([{ ...body.apiKey, key: undefined }]);
    // Its own account: the pets are shared, the orders and keys are not.
    expect((await t.call({ url: '/v1/keys' })).json()).toHaveLength(1);
    expect(Object.keys((await t.app.inject({ url: '/v1/openapi.json' })).json().paths)).toContain('/signup');
  });

  it('answers a name already taken with 409 and changes nothing', async ({ makeApp }) => {
    const t = await makeApp({ SIGNUP: 'open' });
    const [accounts, keys] = [await t.count('accounts'), await t.count('api_keys')];
    for (const name of ['tester', 'tester']) {
      const res = await signUp(t, { account: name });
      expect(res.statusCode).toBe(409);
      expect(expectErrorBody(res, 'ACCOUNT_NAME_TAKEN').message).toBe(`The account name '${name}' is taken; choose another.`);
    }
    expect([await t.count('accounts'), await t.count('api_keys')]).toEqual([accounts, keys]);
  });

  it.for([
    ['no account', {}, "Field 'account' is required."],
    ['an empty name', { account: '' }, 'Field \'account\' must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit.'],
    [
      'a name with a space',
      { account: 'a b' },
      'Field \'account\' must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit.',
    ],
    [
      'a name of 65 characters',
      { account: 'a'.repeat(65) },
      'Field \'account\' must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit.',
    ],
    ['an unknown field', { account: 'bob', plan: 'pro' }, "Field 'plan' is not allowed."],
  ] as const)('refuses %s with 400 and stores nothing', async ([, payload, message], { makeApp }) => {
    const t = await makeApp({ SIGNUP: 'open' });
    expect(expectErrorBody(await signUp(t, payload), 'VALIDATION_FAILED').message).toBe(message);
    expect(await t.count('accounts')).toBe(1);
  });

  it('refuses an Idempotency-Key: the answer holds a key that is never stored', async ({ makeApp }) => {
    const t = await makeApp({ SIGNUP: 'open' });
    const res = await signUp(t, { account: 'carol' }, undefined, { 'idempotency-key': 'once' });
    expect(expectErrorBody(res, 'VALIDATION_FAILED').message).toMatch(/POST \/signup does not take an Idempotency-Key/);
    expect(await t.count('accounts')).toBe(1);
  });

  it('allows SIGNUP_RATE_LIMIT_PER_MINUTE sign-ups per address (default 2), then 429 with Retry-After, storing nothing', async ({
    makeApp,
  }) => {
    const t = await makeApp({ SIGNUP: 'open' });
    expect((await signUp(t, { account: 'one' }, '203.0.113.1')).statusCode).toBe(201);
    // A refused sign-up counts too: guessing names is throttled like creating them.
    expect((await signUp(t, { account: 'one' }, '203.0.113.1')).statusCode).toBe(409);
    const refused = await signUp(t, { account: 'three' }, '203.0.113.1');
    expect(refused.statusCode).toBe(429);
    expect(expectErrorBody(refused, 'RATE_LIMITED').message).toMatch(/signups-per-address/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-policy']).toBe('"signups-per-address";q=2;w=60');
    expect(await t.count('accounts')).toBe(2);
    // Another address has its own budget.
    expect((await signUp(t, { account: 'three' }, '203.0.113.2')).statusCode).toBe(201);
  });

  it('counts sign-ups even where the general rate limit is off', async ({ makeApp }) => {
    const t = await makeApp({ SIGNUP: 'open', RATE_LIMIT_PER_MINUTE: '0', SIGNUP_RATE_LIMIT_PER_MINUTE: '1' });
    expect((await signUp(t, { account: 'first' })).statusCode).toBe(201);
    expectErrorBody(await signUp(t, { account: 'second' }), 'RATE_LIMITED');
  });
});
