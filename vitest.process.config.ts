import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// npm run test:process: what runs the server as a process (the CLI, kill -9 and SIGTERM rounds,
// several servers on one database) or drives a browser. Each file spends its time waiting on
// processes, so two run at once even on two cores; on PostgreSQL with TEST_DATABASE_URL.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.process.ts'],
    maxWorkers: 2,
  },
});
