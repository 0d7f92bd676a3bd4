import { hash } from 'node:crypto';
import { describe, expect, it } from '../../helpers/fixtures.ts';
import { graphql } from '../../helpers/graphql.ts';
import { LOCAL_AUDIENCE, startLocalIssuer } from '../../helpers/local-issuer.ts';
import type { LocalIssuer } from '../../helpers/local-issuer.ts';
import { expectErrorBody } from '../../helpers/test-app.ts';
import type { MakeApp } from '../../helpers/fixtures.ts';
import { petstore } from '../../helpers/cli.ts';

// Access tokens whose subjects have no account yet, and tokens an attacker shapes: what the
// server makes of them (issue 44). The issuer is a real one as a server reads it (discovery and
// keys on loopback), minting whatever subjects and claims a test needs.

let issuer: LocalIssuer;
it.beforeAll(async () => {
  issuer = await startLocalIssuer();
});
it.afterAll(async () => {
  await issuer?.close();
});

/** The server pointed at the issuer, once it has discovered it (until then tokens are 503, as docs/rest-api.md says). */
async function tokenApp(makeApp: MakeApp, env: Record<string, string> = {}) {
  const t = await makeApp({ OIDC_ISSUERS: issuer.url, OIDC_AUDIENCE: LOCAL_AUDIENCE, OIDC_NEW_SUBJECTS: 'create', ...env });
  // A token for another API: refused once the keys are known, without making an account.
  const elsewhere = await issuer.token('nobody', { aud: 'https://elsewhere.test/' });
  await expect
    .poll(async () => (await t.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${elsewhere}` } })).statusCode)
    .toBe(401);
  return t;
}
const bearer = (token: string, remoteAddress = '203.0.113.9') => ({ headers: { authorization: `Bearer ${token}` }, remoteAddress });

/** The name the server gave subjects' accounts before names of the two kinds were kept apart: what a squatter predicts. */
const oldAutomaticName = (iss: string, sub: string) =>
  `${sub.replace(/[^A-Za-z0-9._-]+/g, '.').slice(0, 40)}-${hash('sha256', `${iss}\n${sub}`, 'hex').slice(0, 10)}`;

describe('accounts made for token subjects', () => {
  it('never collide with a name a person chose: squatting the predictable name leaves the subject’s token working', async ({ makeApp }) => {
    const t = await tokenApp(makeApp, { SIGNUP: 'open' });
    const subject = 'alice@example.com';
    const squat = await t.app.inject({ method: 'POST', url: '/signup', payload: { account: oldAutomaticName(issuer.url, subject) } });
    expect(squat.statusCode).toBe(201);
    const squatter = { authorization: `Bearer ${squat.json().apiKey.key as string}` };
    const token = await issuer.token(subject);
    const created = await t.app.inject({ method: 'POST', url: '/v1/pets', payload: { name: 'Mine', categoryId: 1 }, ...bearer(token) });
    expect(created.statusCode).toBe(201);
    // The subject's account is its own: the squatter's account sees none of its orders.
    await t.app.inject({ method: 'POST', url: '/v1/store/orders', payload: { petId: created.json().id }, ...bearer(token) });
    expect((await t.app.inject({ url: '/v1/store/orders', headers: squatter })).json()).toEqual([]);
    expect((await t.app.inject({ url: '/v1/store/orders', ...bearer(token) })).json()).toHaveLength(1);
    // And a name of the subjects' form cannot be chosen at all.
    const name = (await t.db.selectFrom('accounts').select('name').orderBy('id', 'desc').executeTakeFirstOrThrow()).name;
    expect(name).toMatch(/^alice\.example\.com~[0-9a-f]{10}$/);
    const taken = await t.app.inject({ method: 'POST', url: '/signup', payload: { account: name } });
    expectErrorBody(taken, 'VALIDATION_FAILED');
    expect(petstore(['keys', 'create', '--account', 'bob~0123456789'], { DATABASE_URL: t.databaseUrl }).status).not.toBe(0);
  });

  it('find another name when theirs is somehow taken, and never answer 500', async ({ makeApp }) => {
    const t = await tokenApp(makeApp);
    const subject = 'carol';
    const expected = `carol~${hash('sha256', `${issuer.url}\n${subject}`, 'hex').slice(0, 10)}`;
    await t.db.insertInto('accounts').values({ name: expected, created_at: new Date().toISOString() }).execute();
    const res = await t.app.inject({ url: '/v1/pets', ...bearer(await issuer.token(subject)) });
    expect(res.statusCode).toBe(200);
    const made = await t.db.selectFrom('accounts').select('name').where('name', 'like', 'carol~%').orderBy('id').execute();
    expect(made.map((row) => row.name)).toEqual([expected, expect.stringMatching(/^carol~[0-9a-f]{24}$/)]);
  });

  it('are charged like sign-ups: per address, and fleet-wide', async ({ makeApp }) => {
    const t = await tokenApp(makeApp, { SIGNUP_RATE_LIMIT_PER_MINUTE: '3', NEW_ACCOUNTS_PER_MINUTE: '5' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await t.app.inject({ url: '/v1/pets', ...bearer(await issuer.token(`flood-${i}`), '198.51.100.1') })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await t.app.inject({ url: '/v1/pets', ...bearer(await issuer.token('flood-9'), '198.51.100.1') });
    expect(expectErrorBody(refused, 'RATE_LIMITED').message).toMatch(/signups-per-address/);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Other addresses, until the fleet-wide bound (5 a minute, 3 spent) is reached.
    const elsewhere: number[] = [];
    for (let i = 0; i < 3; i++) {
      elsewhere.push(
        (await t.app.inject({ url: '/v1/pets', ...bearer(await issuer.token(`far-${i}`), `198.51.100.${10 + i}`) })).statusCode,
      );
    }
    expect(elsewhere).toEqual([200, 200, 429]);
    const fleet = await t.app.inject({ url: '/v1/pets', ...bearer(await issuer.token('far-9'), '198.51.100.99') });
    expect(expectErrorBody(fleet, 'RATE_LIMITED').message).toMatch(/new-accounts/);
    expect(await t.count('accounts')).toBe(1 + 5);
    // A subject that has its account already is not charged again.
    expect((await t.app.inject({ url: '/v1/pets', ...bearer(await issuer.token('flood-0'), '198.51.100.1') })).statusCode).toBe(200);
  });

  it('refuse a subject no database could store (U+0000) with 401, on both engines', async ({ makeApp }) => {
    const t = await tokenApp(makeApp);
    const res = await t.app.inject({ url: '/v1/pets', ...bearer(await issuer.token('nul\u0000byte')) });
    expect(res.statusCode).toBe(401);
    expect(expectErrorBody(res, 'UNAUTHORIZED').message).toBe(
      "The access token's 'sub' claim cannot name an account: at most 255 characters, and no control characters.",
    );
  });
});

describe('tokens an attacker shapes', () => {
  it('a key id the issuer’s set lacks is 401 while the set may not be fetched again, not an issuer outage', async ({ makeApp }) => {
    const t = await tokenApp(makeApp, { OIDC_KEYS_REFRESH_MIN_S: '600' });
    expect((await t.app.inject({ url: '/v1/pets', ...bearer(await issuer.token('dave')) })).statusCode).toBe(200);
    const fetches = issuer.jwksFetches();
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ url: '/v1/pets', ...bearer(await issuer.token('dave', {}, { kid: `made-up-${i}` })) });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    }
    expect(issuer.jwksFetches() - fetches).toBeLessThanOrEqual(1);
  });

  it('a stream of a token valid for months stays open (no timer past 2^31 ms ends it at once)', async ({ makeApp }) => {
    const t = await tokenApp(makeApp);
    const token = await issuer.token('erin', { exp: Math.floor(Date.now() / 1000) + 90 * 24 * 3600 });
    const origin = await t.listen();
    const abort = new AbortController();
    const res = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { petCreated { name } }' }),
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    if (!res.body) throw new Error('no stream');
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    await graphql(t, 'mutation { createPet(input: { name: "Long", categoryId: 1 }) { id } }', undefined, {
      authorization: `Bearer ${token}`,
    });
    while (!text.includes('"Long"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(text).toContain('"petCreated":{"name":"Long"}');
    expect(text).not.toContain('expired');
    abort.abort();
  });
});
