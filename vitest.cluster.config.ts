import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// npm run test:cluster: several server processes behind HAProxy on PostgreSQL and Redis.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/cluster/**/*.cluster.ts'],
    testTimeout: 300_000,
    // One file at a time: each loads the machine with server processes of its own, and the
    // fleet's recovery times and the kill -9 rounds are read off a machine no other file loads.
    maxWorkers: 1,
  },
});
