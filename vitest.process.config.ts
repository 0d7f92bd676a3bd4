import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// npm run test:process: what runs the server as a process (the CLI, kill -9 and SIGTERM rounds,
// several servers on one database) or drives a browser; on PostgreSQL with TEST_DATABASE_URL.
// One file at a time: each keeps server processes busy, and two at once on two cores took
// 129 s against 127 s one by one, every file nearly twice as long.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.process.ts'],
    maxWorkers: 1,
  },
});
