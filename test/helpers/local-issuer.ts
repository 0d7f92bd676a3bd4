import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWTPayload } from 'jose';

/** The audience the in-process tests' servers take (OIDC_AUDIENCE). */
export const LOCAL_AUDIENCE = 'https://petstore.local/';

export interface LocalIssuer {
  /** Its issuer identifier (OIDC_ISSUERS), on loopback. */
  url: string;
  /** An access token for `subject`, signed by the issuer's key, for LOCAL_AUDIENCE unless the claims say otherwise. */
  token(subject: string, claims?: JWTPayload, header?: { kid?: string }): Promise<string>;
  /** How many times the key set was fetched. */
  jwksFetches(): number;
  close(): Promise<void>;
}

/**
 * An OpenID Connect issuer as a server reads one, on loopback: discovery metadata and a JWKS,
 * and tokens for any subject and claims (RFC 9068's `at+jwt`, RS256). The in-process tests use it
 * where oidc-provider (test/helpers/oidc-issuer.ts, a process) cannot mint what they need: many
 * subjects, odd subjects, far expiries.
 */
export async function startLocalIssuer(): Promise<LocalIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = 'local-1';
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'RS256' }] };
  let fetches = 0;
  let url = '';
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') return res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks` }));
    if (req.url === '/jwks') {
      fetches++;
      return res.end(JSON.stringify(jwks));
    }
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    token: (subject, claims = {}, header = {}) =>
      new SignJWT({ scope: 'petstore:read petstore:write petstore:keys', ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: header.kid ?? kid })
        .setIssuer(url)
        .setAudience((claims.aud as string | string[] | undefined) ?? LOCAL_AUDIENCE)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime(typeof claims.exp === 'number' ? claims.exp : '10m')
        .sign(privateKey),
    jwksFetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
