import { it } from './fixtures.ts';

// Run before each test file (vitest.config.ts: setupFiles). Files of one worker share modules
// (isolate: false), and a file's top-level `it.override('appEnv' | 'appOptions', …)` replaces the
// shared `it`'s defaults, so the next file would inherit them: each file starts from none.
it.override('appEnv', {});
it.override('appOptions', {});
