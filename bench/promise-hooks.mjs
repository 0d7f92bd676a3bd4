// Preloaded (--import) into a server by `npm run bench -- --profile NAME --promises`: counts the
// promises it makes (V8's promise hooks) and, for one in SAMPLE_EVERY, where it was made. On
// SIGUSR2 it writes both to `<tmpdir>/petstore-promises-<pid>.json` and starts counting again.
// Plain JavaScript: the production build runs as npm start runs it, without a loader.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promiseHooks } from 'node:v8';

const SAMPLE_EVERY = 97;
// The frames kept for a site: the creating function and what called it.
const FRAMES = 4;
let made = 0;
let sites = new Map();

promiseHooks.onInit(() => {
  made++;
  if (made % SAMPLE_EVERY !== 0) return;
  const held = { stack: '' };
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = FRAMES + 1;
  Error.captureStackTrace(held);
  Error.stackTraceLimit = limit;
  // The first line names the error; the next is this hook.
  const site = held.stack
    .split('\n')
    .slice(2)
    .map((line) => line.trim().replace(/^at /, ''))
    .join(' < ');
  sites.set(site, (sites.get(site) ?? 0) + SAMPLE_EVERY);
});

process.on('SIGUSR2', () => {
  writeFileSync(join(tmpdir(), `petstore-promises-${process.pid}.json`), JSON.stringify({ made, sites: [...sites] }));
  made = 0;
  sites = new Map();
});
