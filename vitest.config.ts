import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Our code gets the graphql build Node loads for Yoga's and graphql-jit's (graphql 16's
    // CommonJS one; 17's ESM one, by its export conditions): Vite would pick another for ours
    // (16's ESM build, 17's development build), giving two GraphQLError classes and breaking
    // instanceof.
    alias: [{ find: /^graphql$/, replacement: fileURLToPath(import.meta.resolve('graphql')) }],
  },
  test: {
    // The in-process tier (npm test). Server processes and browsers: vitest.process.config.ts.
    include: ['test/**/*.test.ts'],
    // Vitest's default is one worker per core less one: a single worker on two cores. Test files
    // spend part of their time waiting on sockets, timers and the database, so two overlap well.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Files in one worker share its modules instead of importing the app again each (import time
    // 45 s → 7 s on two cores). Safe because every file builds its own apps and databases, and no
    // test replaces a module, a global or the environment (eslint refuses vi.mock and the like).
    isolate: false,
    // …and each file starts from the default app environment (reset-file-fixtures.ts says why).
    setupFiles: ['test/helpers/reset-file-fixtures.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Sized for a loaded two-core machine (CI runs beside other jobs), never for a fast one:
    // a timeout only catches a hang. Tests that start processes set their own, longer ones.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
