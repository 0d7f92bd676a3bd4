import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// npm run test:web: the example front end (examples/web), built, driven in Chromium.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/web/**/*.web.ts'],
    globalSetup: ['test/global-setup.ts', 'test/web/build-example.ts'],
  },
});
