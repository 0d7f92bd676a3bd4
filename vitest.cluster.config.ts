import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// npm run test:cluster: several server processes behind HAProxy on PostgreSQL and Redis.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/cluster/**/*.cluster.ts'],
    testTimeout: 300_000,
  },
});
