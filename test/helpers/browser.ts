import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { it } from './fixtures.ts';

// Debian's Chromium; .ci/run installs it. Missing is a failure, never a skip.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The suite's `it` with `browser`: headless Chromium for the file, closed after its last test. */
// eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructuring
export const browserIt = it.extend('browser', { scope: 'file' }, async ({}, { onCleanup }): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  onCleanup(() => browser.close());
  return browser;
});
