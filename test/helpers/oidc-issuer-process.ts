// An OpenID Connect provider for the tests, run as a process of its own (test/helpers/oidc-issuer.ts
// starts it): oidc-provider issuing JWT access tokens (RFC 9068) for this API's resource
// indicator. Not part of the product. Its settings come from the environment:
// ISSUER_PORT, ISSUER_URL (where clients reach it, when not at its own port: behind a relay),
// AUDIENCE, OTHER_AUDIENCE, WEB_REDIRECT_URIS (comma-separated), JWKS (private keys, the first
// signs), SHORT_TTL_S (the lifetime of tokens for client petstore-short), HMAC_SECRET.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const port = Number(process.env.ISSUER_PORT);
const issuer = process.env.ISSUER_URL || `http://127.0.0.1:${port}`;
const audience = process.env.AUDIENCE ?? '';
const other = process.env.OTHER_AUDIENCE ?? '';
const scope = 'openid petstore:read petstore:write petstore:keys';
const API_SCOPES = 'petstore:read petstore:write petstore:keys';
let jwksFetches = 0;

const provider = new Provider(issuer, {
  clients: [
    // Machine clients: tokens by client credentials.
    {
      client_id: 'petstore-tests',
      client_secret: 'tests-secret',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope,
    },
    {
      client_id: 'petstore-short',
      client_secret: 'short-secret',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope,
    },
    // A front end: authorization code with PKCE, no secret.
    {
      client_id: 'petstore-web',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: (process.env.WEB_REDIRECT_URIS ?? 'http://localhost:5173/').split(','),
      // Back to the page after signing out at the provider (RP-initiated logout).
      post_logout_redirect_uris: (process.env.WEB_REDIRECT_URIS ?? 'http://localhost:5173/').split(','),
      scope,
    },
  ],
  jwks: { keys: JSON.parse(process.env.JWKS ?? '[]') as object[] },
  scopes: scope.split(' '),
  // The front end signs in: every request of its origin is allowed (its redirect URIs').
  clientBasedCORS: () => true,
  features: {
    clientCredentials: { enabled: true },
    devInteractions: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => audience,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx: unknown, resource: string) => {
        if (resource === audience) return { scope: API_SCOPES, audience, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        if (resource === other) return { scope: API_SCOPES, audience: other, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        // Signed with a secret shared with nobody but this provider: a server must never accept HMAC.
        if (resource === 'urn:petstore:hmac')
          return {
            scope: API_SCOPES,
            audience,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'HS256', key: Buffer.from(process.env.HMAC_SECRET ?? 'x'.repeat(32)) } },
          };
        throw new Error(`unknown resource ${resource}`);
      },
    },
  },
  ttl: {
    ClientCredentials: (_ctx: unknown, _token: unknown, client: { clientId: string }) =>
      client.clientId === 'petstore-short' ? Number(process.env.SHORT_TTL_S ?? 2) : 600,
    AccessToken: 600,
  },
} as never);
provider.proxy = false;

// How many times the key set was asked for: the rotation test counts the server's refreshes.
provider.use(async (ctx: { path: string; body: unknown; method: string }, next: () => Promise<void>) => {
  if (ctx.path === '/test/jwks-fetches' && ctx.method === 'GET') {
    ctx.body = { count: jwksFetches };
    return;
  }
  if (ctx.path === '/jwks') jwksFetches++;
  await next();
});

createServer(provider.callback()).listen(port, '127.0.0.1', () => console.log(`ready ${issuer}`));
