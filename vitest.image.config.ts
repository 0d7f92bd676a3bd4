import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// npm run test:image: the container image `npm run image` built, run with runc (as root) on
// SQLite and on PostgreSQL with Redis.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.image.ts'],
    maxWorkers: 1,
    testTimeout: 300_000,
  },
});
