import { petstore } from '../helpers/cli.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { graphql } from '../helpers/graphql.ts';
import { expectErrorBody } from '../helpers/test-app.ts';
import type { TestApp } from '../helpers/test-app.ts';

/** The status the key gets now. Another process's change is seen within the verifier's bound; tests poll for it with a generous timeout. */
const statusOf = async (t: TestApp, key: string) =>
  (await t.app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${key}` } })).statusCode;
const POLL = { timeout: 20_000, interval: 50 };

describe('petstore accounts', { timeout: 180_000 }, () => {
  it('lists accounts, disables one (a running server refuses all its keys) and enables it again', async ({ t }) => {
    const env = { DATABASE_URL: t.databaseUrl };
    const second = (await t.call({ method: 'POST', url: '/v1/keys', payload: { name: 'second' } })).json().key as string;
    await t.call({ method: 'DELETE', url: `/v1/keys/${(await t.call({ url: '/v1/keys' })).json()[1].id}` });
    const third = (await t.call({ method: 'POST', url: '/v1/keys' })).json().key as string;
    // Warm: both keys verified and trusted, so the refusal must come from the disable itself.
    await expect.poll(() => statusOf(t, third), POLL).toBe(200);

    const listed = petstore(['accounts', 'list'], env);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^NAME\s+CREATED\s+ACTIVE KEYS\s+DISABLED\ntester\s+\d{4}-\S+\s+2\s+-\n$/);

    const disabled = petstore(['accounts', 'disable', 'tester'], env);
    expect(disabled.status).toBe(0);
    expect(disabled.stdout).toMatch(/^Disabled account "tester" at \d{4}-\S+: running servers refuse its keys within 250 ms\.\n$/);
    await expect.poll(() => statusOf(t, t.key), POLL).toBe(401);
    await expect.poll(() => statusOf(t, third), POLL).toBe(401);
    // Only the key's holder learns it, so the answer may say why, on both faces; a revoked key is not told apart from an unknown one.
    const refused = expectErrorBody(await t.app.inject({ url: '/v1/keys', headers: { authorization: `Bearer ${third}` } }), 'UNAUTHORIZED');
    expect(refused.message).toBe("The API key's account is disabled.");
    const viaGraphQL = await graphql(t, '{ myKeys { id } }', undefined, { authorization: `Bearer ${third}` });
    expect(viaGraphQL.res.statusCode).toBe(401);
    expect(viaGraphQL.body.errors?.[0]?.message).toBe("The API key's account is disabled.");
    expect(
      expectErrorBody(await t.app.inject({ url: '/v1/keys', headers: { authorization: `Bearer ${second}` } }), 'UNAUTHORIZED').message,
    ).toBe('The API key is invalid or has been revoked.');
    expect(petstore(['accounts', 'list'], env).stdout).toMatch(/tester\s+\S+\s+2\s+\d{4}-/);
    expect(petstore(['accounts', 'disable', 'tester'], env).stdout).toBe('Account "tester" was already disabled; nothing changed.\n');

    expect(petstore(['accounts', 'enable', 'tester'], env).stdout).toBe('Enabled account "tester": its unrevoked keys work again.\n');
    await expect.poll(() => statusOf(t, third), POLL).toBe(200);
    // The key revoked before stays revoked.
    await expect.poll(() => statusOf(t, second), POLL).toBe(401);
  });

  it('says so when the account does not exist (exit 1) or the command line is wrong (exit 2)', ({ databaseUrl }) => {
    const missing = petstore(['accounts', 'disable', 'nobody'], { DATABASE_URL: databaseUrl });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe("petstore: No account is named 'nobody'.\n");
    const empty = petstore(['accounts', 'list'], { DATABASE_URL: databaseUrl });
    expect(empty.stdout).toBe('No accounts yet. Create one with: petstore keys create --account NAME\n');
    const usage = petstore(['accounts', 'disable'], { DATABASE_URL: databaseUrl });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^petstore: accounts disable needs exactly one account NAME/);
  });
});
