import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for both our code and Yoga's; Vite would pick the
    // ESM build for ours, giving two GraphQLError classes and breaking instanceof.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Sized for a loaded two-core machine (CI runs beside other jobs), never for a fast one:
    // a timeout only catches a hang. Tests that start processes set their own, longer ones.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
