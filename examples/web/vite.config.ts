import { defineConfig } from 'vite';

// The page calls /graphql on its own origin; Vite passes it to the server (PETSTORE_API, default
// the server's `npm start` address), so no CORS setting is needed, in dev and in preview alike.
// WEB_PORT moves the page (default 5173); a port in use is an error, not another port.
const target = process.env.PETSTORE_API ?? 'http://localhost:4000';
// The server's protected-resource metadata says where to sign in, when it accepts access tokens.
const proxy = {
  '/graphql': { target, changeOrigin: true },
  '/.well-known/oauth-protected-resource': { target, changeOrigin: true },
};
const port = Number(process.env.WEB_PORT ?? 5173);

export default defineConfig({
  server: { proxy, port, strictPort: true },
  preview: { proxy, port, strictPort: true },
});
