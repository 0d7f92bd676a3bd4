import { defineConfig } from 'vite';

// The page calls /graphql on its own origin; Vite passes it to the server (PETSTORE_API, default
// the server's `npm start` address), so no CORS setting is needed, in dev and in preview alike.
const proxy = { '/graphql': { target: process.env.PETSTORE_API ?? 'http://localhost:4000', changeOrigin: true } };

export default defineConfig({
  server: { proxy },
  preview: { proxy },
});
