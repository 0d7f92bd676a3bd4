import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { browserIt as it } from '../helpers/browser.ts';
import { freePort } from '../helpers/cli.ts';
import { afterEach, beforeAll } from 'vitest';
import { describe, expect } from '../helpers/fixtures.ts';
import { waitFor } from '../helpers/webhook-receiver.ts';
import { EXAMPLE_DIR } from './build-example.ts';
import { startIssuer } from '../helpers/oidc-issuer.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHOTS = fileURLToPath(new URL('../../test-artifacts/web/', import.meta.url));
const KEY = /psk_[A-Za-z0-9]{40}/;

/** The example README's shell blocks, each a list of command lines, exactly as a person would paste them. */
const BLOCKS = [...readFileSync(`${EXAMPLE_DIR}README.md`, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
  (match[1] ?? '').trim().split('\n'),
);

interface Shell {
  output(): string;
  stop(): void;
}

/**
 * One README line, run by bash in the repository root as written. The environment only moves
 * what would collide on a shared machine: ports and the database file.
 */
function run(line: string, env: Record<string, string>, started: Shell[]): Shell {
  const child = spawn('bash', ['-c', line], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const shell = {
    output: () => output,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid ?? 0), 'SIGTERM');
    },
  };
  started.push(shell);
  return shell;
}

/** A README server line, on a port and database of the test's own; resolves once it says it is ready. */
async function startServer(line: string, dir: string, started: Shell[]): Promise<{ origin: string; shell: Shell }> {
  const port = await freePort();
  const shell = run(line, { PORT: String(port), DATABASE_URL: join(dir, 'petstore.db') }, started);
  await waitFor(async () => /Petstore Gateway is ready at /.test(shell.output()), 240_000, `the server (${line}):\n${shell.output()}`);
  return { origin: `http://127.0.0.1:${port}`, shell };
}

/** The README's example line, pointed at `api` on a port of its own; resolves once the page is served. */
async function startPage(line: string, api: string, started: Shell[], port?: number): Promise<string> {
  port ??= await freePort();
  const shell = run(line, { WEB_PORT: String(port), PETSTORE_API: api }, started);
  const site = `http://127.0.0.1:${port}`;
  await waitFor(
    () =>
      fetch(site).then(
        (r) => r.ok,
        () => false,
      ),
    240_000,
    `the page (${line}):\n${shell.output()}`,
  );
  return site;
}

let step = 0;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}${String(++step).padStart(2, '0')}-${name}.png`, fullPage: true });

const withKey = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

describe('the example front end (examples/web), following its README', { timeout: 600_000 }, () => {
  const started: Shell[] = [];
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-web-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const shell of started.splice(0)) shell.stop();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  beforeAll(() => void mkdirSync(SHOTS, { recursive: true }));

  it('has the blocks this test follows: server and page; production with a key from the CLI; signing in', () => {
    expect(BLOCKS).toEqual([
      [expect.stringMatching(/GRAPHQL_TRUSTED_DOCUMENTS=\S+ npm start$/), 'npm run example:web'],
      [
        expect.stringMatching(/^NODE_ENV=production GRAPHQL_TRUSTED_DOCUMENTS=\S+ npm start$/),
        'npx petstore keys create --account web',
        'npm run example:web',
      ],
      [expect.stringMatching(/^OIDC_ISSUERS=http:\/\/localhost:8080 OIDC_AUDIENCE=\S+ .*npm start$/), 'npm run example:web'],
    ]);
  });

  it('lists, pages, filters, creates, orders and watches a message, as a person would', async ({ browser }) => {
    const [serverLine = '', pageLine = ''] = BLOCKS[0] ?? [];
    const server = await startServer(serverLine, tempDir(), started);
    const key = KEY.exec(server.shell.output())?.[0] ?? '';
    expect(key).toMatch(KEY);
    for (let i = 1; i <= 7; i++) {
      const body = JSON.stringify({ name: `Pet ${i}`, categoryId: 1, status: i === 7 ? 'sold' : 'available' });
      expect((await fetch(`${server.origin}/v1/pets`, { method: 'POST', headers: withKey(key), body })).status).toBe(201);
    }
    const site = await startPage(pageLine, server.origin, started);

    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const sent: string[] = [];
    page.on('request', (request) => void (new URL(request.url()).pathname === '/graphql' && sent.push(request.url())));
    const pets = page.getByTestId(/^pet-/);
    await page.goto(site);
    // Nothing is asked of the server before there is a key; the page says what it needs.
    await expect.poll(() => page.locator('#key-status').innerText()).toMatch(/Paste your API key/);
    expect(sent).toEqual([]);
    await shot(page, 'no-key-yet');
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();

    // Paging both ways.
    await expect
      .poll(() => pets.allInnerTexts())
      .toEqual(['Pet 1', 'Pet 2', 'Pet 3', 'Pet 4', 'Pet 5'].map((n, i) => expect.stringContaining(`${n} (#${i + 1}`)));
    // Both reads done (pets and orders): the status line clears, as a person sees it do.
    await expect.poll(() => page.locator('#key-status').innerText()).toBe('');
    await shot(page, 'first-page');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => pets.allInnerTexts()).toEqual([expect.stringContaining('Pet 6'), expect.stringContaining('Pet 7')]);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await shot(page, 'next-page');
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => pets.count()).toBe(5);
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

    // The status filter.
    await page.getByLabel('Status').selectOption('sold');
    await expect.poll(() => pets.allInnerTexts()).toEqual([expect.stringContaining('Pet 7 (#7, sold)')]);
    await shot(page, 'filtered-sold');

    // Creating: the server's validation error, then a pet.
    await page.getByLabel('Name').fill('   ');
    await page.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => page.locator('#create-error').innerText()).toMatch(/'name' must contain a non-blank character/);
    await shot(page, 'create-refused');
    await page.getByLabel('Status').selectOption('available');
    await page.getByLabel('Name').fill('Browser Mia');
    await page.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => page.locator('#create-error').innerText()).toBe('');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => pets.allInnerTexts()).toContainEqual(expect.stringContaining('Browser Mia (#8, available)'));
    await shot(page, 'created');

    // Ordering and advancing: placed, approved, delivered, and the pet sold.
    await page.getByTestId('pet-8').getByRole('button', { name: 'Order' }).click();
    const order = page.getByTestId(/^order-/);
    await expect.poll(() => order.allInnerTexts()).toEqual([expect.stringMatching(/Browser Mia, placed/)]);
    await shot(page, 'ordered');
    await order.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => order.allInnerTexts()).toEqual([expect.stringMatching(/Browser Mia, approved/)]);
    await order.getByRole('button', { name: 'Deliver' }).click();
    await expect.poll(() => order.allInnerTexts()).toEqual([expect.stringMatching(/Browser Mia, delivered/)]);
    await shot(page, 'delivered');
    expect(((await (await fetch(`${server.origin}/v1/pets/8`, { headers: withKey(key) })).json()) as { status: string }).status).toBe(
      'sold',
    );

    // A message, its status pushed live until it is sent.
    await page.getByLabel('Message', { exact: true }).fill('Hello from the browser');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('#message-status').innerText(), { timeout: 30_000 }).toBe('sent (1 attempts)');
    await shot(page, 'message-sent');
    // Every operation went as a document id the server trusts: no query text ever left the page.
    expect(sent.length).toBeGreaterThan(0);
  });

  it('in production: only the manifest runs, the key comes from the CLI as written, and the page works', async ({ browser }) => {
    const [serverLine = '', keyLine = '', pageLine = ''] = BLOCKS[1] ?? [];
    const dir = tempDir();
    const server = await startServer(serverLine, dir, started);
    expect(server.shell.output()).not.toMatch(KEY);
    const made = run(keyLine, { DATABASE_URL: join(dir, 'petstore.db') }, started);
    await waitFor(async () => KEY.test(made.output()), 120_000, `a key from: ${keyLine}\n${made.output()}`);
    const key = KEY.exec(made.output())?.[0] ?? '';
    // Text is refused in production: only the page's documents can run.
    const text = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: withKey(key),
      body: JSON.stringify({ query: '{ pets { totalCount } }' }),
    });
    expect(((await text.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'TRUSTED_DOCUMENTS_ONLY',
    );
    await fetch(`${server.origin}/v1/pets`, {
      method: 'POST',
      headers: withKey(key),
      body: JSON.stringify({ name: 'Prod Rex', categoryId: 2 }),
    });

    const site = await startPage(pageLine, server.origin, started);
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(site);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
    await expect.poll(() => page.getByTestId(/^pet-/).allInnerTexts()).toEqual([expect.stringContaining('Prod Rex (#1, available)')]);
    await shot(page, 'production');
  });

  it('signs a person in with the OpenID Connect provider the server names, and works on their own account', async ({ browser }) => {
    const [serverLine = '', pageLine = ''] = BLOCKS[2] ?? [];
    const audience = /OIDC_AUDIENCE=(\S+)/.exec(serverLine)?.[1] ?? '';
    const pagePort = await freePort();
    // The provider the block names, on a port of the test's own: the page registered as its public client.
    const issuer = await startIssuer({ audience, webRedirectUris: [`http://127.0.0.1:${pagePort}/`] });
    try {
      const server = await startServer(serverLine.replace('http://localhost:8080', issuer.url), tempDir(), started);
      const key = KEY.exec(server.shell.output())?.[0] ?? '';
      const body = JSON.stringify({ name: 'Signed-in Rex', categoryId: 1 });
      expect((await fetch(`${server.origin}/v1/pets`, { method: 'POST', headers: withKey(key), body })).status).toBe(201);
      const site = await startPage(pageLine, server.origin, started, pagePort);

      const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      await page.goto(site);
      // No key field: the page offers the server's issuer.
      await expect.poll(() => page.getByRole('button', { name: /^Sign in with 127\.0\.0\.1:/ }).isVisible()).toBe(true);
      expect(await page.getByLabel('API key').isVisible()).toBe(false);
      await shot(page, 'sign-in-offered');
      await page.getByRole('button', { name: /^Sign in with/ }).click();
      // The provider's own pages: its sign-in form, then consent.
      await page.locator('input[name="login"]').fill('alice');
      await page.locator('input[name="password"]').fill('any password');
      await shot(page, 'provider-login');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.origin === new URL(site).origin && url.search === '', { timeout: 30_000 });
      await shot(page, 'signed-in');
      // Back on the page, signed in, saying as whom: the catalogue, and an order of alice's own.
      await expect.poll(() => page.locator('#who-name').innerText()).toBe('Signed in as alice');
      await expect
        .poll(() => page.getByTestId(/^pet-/).allInnerTexts(), { timeout: 30_000 })
        .toEqual([expect.stringContaining('Signed-in Rex (#1')]);
      expect(new URL(page.url()).search).toBe('');
      await page.getByTestId('pet-1').getByRole('button', { name: 'Order' }).click();
      await expect.poll(() => page.getByTestId(/^order-/).allInnerTexts()).toEqual([expect.stringMatching(/Signed-in Rex, placed/)]);
      await shot(page, 'signed-in-ordered');
      // The order is the signed-in person's account's, not the server's first key's.
      expect(await (await fetch(`${server.origin}/v1/store/orders`, { headers: withKey(key) })).json()).toEqual([]);
      // Signing out ends the session at the provider too (its confirmation page), and comes back signed out.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: /Yes, sign me out/i }).click();
      await page.waitForURL((url) => url.origin === new URL(site).origin, { timeout: 30_000 });
      await expect.poll(() => page.getByRole('button', { name: /^Sign in with/ }).isVisible()).toBe(true);
      expect(await page.locator('#who').isVisible()).toBe(false);
      await shot(page, 'signed-out');
      // Signing in again asks for the password again: the provider's session ended.
      await page.getByRole('button', { name: /^Sign in with/ }).click();
      await expect.poll(() => page.locator('input[name="password"]').isVisible(), { timeout: 30_000 }).toBe(true);
      await page.locator('input[name="login"]').fill('alice');
      await page.locator('input[name="password"]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      // Its consent again: signing out ended the grant with the session.
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.origin === new URL(site).origin && url.search === '', { timeout: 30_000 });
      await expect.poll(() => page.locator('#who-name').innerText(), { timeout: 30_000 }).toBe('Signed in as alice');
      // A token the server no longer takes (run out, say): the page offers sign-in again.
      await page.evaluate(() => sessionStorage.setItem('petstore-access-token', 'ran.out.token'));
      await page.reload();
      await expect.poll(() => page.locator('#key-status').innerText()).toBe('Your sign-in has ended: sign in again.');
      expect(await page.getByRole('button', { name: /^Sign in with/ }).isVisible()).toBe(true);
    } finally {
      await issuer.stop();
    }
  });

  it("says what to do when the server was started without the page's documents", async ({ browser }) => {
    const server = await startServer('npm start', tempDir(), started);
    const key = KEY.exec(server.shell.output())?.[0] ?? '';
    const site = await startPage(BLOCKS[0]?.[1] ?? '', server.origin, started);
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(site);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
    await expect
      .poll(() => page.locator('#key-status').innerText())
      .toMatch(
        /does not know this page's operations: start it with GRAPHQL_TRUSTED_DOCUMENTS=examples\/web\/src\/__generated__\/persisted-documents\.json/,
      );
    await page.getByLabel('Status').selectOption('sold');
    await shot(page, 'server-without-documents');
    expect(failures).toEqual([]);
  });
});
