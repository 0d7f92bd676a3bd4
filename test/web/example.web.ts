import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { browserIt as it } from '../helpers/browser.ts';
import { freePort } from '../helpers/cli.ts';
import { describe, expect } from '../helpers/fixtures.ts';
import { waitFor } from '../helpers/webhook-receiver.ts';
import { EXAMPLE_DIR } from './build-example.ts';

const SHOTS = fileURLToPath(new URL('../../test-artifacts/web/', import.meta.url));
const MANIFEST = `${EXAMPLE_DIR}src/__generated__/persisted-documents.json`;

// The server as in production with the example's manifest: only the documents the example was
// built with can run, so the test also proves the page sends nothing else.
it.override('appEnv', {
  NODE_ENV: 'production',
  GRAPHQL_TRUSTED_DOCUMENTS: MANIFEST,
  MESSAGE_DELIVERY: 'true',
  MESSAGE_POLL_MS: '20',
  SUBSCRIPTION_POLL_MS: '50',
});

let site: string;
let preview: ChildProcess | undefined;
let step = 0;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}${String(++step).padStart(2, '0')}-${name}.png`, fullPage: true });

it.beforeAll(async ({ t }) => {
  mkdirSync(SHOTS, { recursive: true });
  const api = await t.app.listen({ port: 0, host: '127.0.0.1' });
  for (let i = 1; i <= 7; i++) {
    await t.call({ method: 'POST', url: '/v1/pets', payload: { name: `Pet ${i}`, categoryId: 1, status: i === 7 ? 'sold' : 'available' } });
  }
  // `vite preview` serves the built example and passes /graphql to the server, as the README's command does.
  const port = await freePort();
  preview = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
    {
      cwd: EXAMPLE_DIR,
      env: { ...process.env, PETSTORE_API: api },
      stdio: 'ignore',
    },
  );
  site = `http://127.0.0.1:${port}`;
  await waitFor(
    () =>
      fetch(site).then(
        (r) => r.ok,
        () => false,
      ),
    60_000,
    'vite preview',
  );
});

it.afterAll(() => void preview?.kill());

describe('the example front end (examples/web) in Chromium', () => {
  it('lists, pages, filters, creates, orders and watches a message, as a person would', async ({ t, browser }) => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const pets = page.getByTestId(/^pet-/);
    await page.goto(site);
    await page.getByLabel('API key').fill(t.key);
    await page.getByRole('button', { name: 'Use key' }).click();

    // Paging both ways.
    await expect
      .poll(() => pets.allInnerTexts())
      .toEqual(['Pet 1', 'Pet 2', 'Pet 3', 'Pet 4', 'Pet 5'].map((n, i) => expect.stringContaining(`${n} (#${i + 1}`)));
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
    expect((await t.call({ url: '/v1/pets/8' })).json().status).toBe('sold');

    // A message, its status pushed live until it is sent.
    await page.getByLabel('Message', { exact: true }).fill('Hello from the browser');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('#message-status').innerText(), { timeout: 30_000 }).toBe('sent (1 attempts)');
    await shot(page, 'message-sent');
  }, 180_000);
});
