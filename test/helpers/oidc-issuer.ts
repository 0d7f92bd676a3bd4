import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import * as client from 'openid-client';
import { freePort } from './cli.ts';

const PROCESS = fileURLToPath(new URL('oidc-issuer-process.ts', import.meta.url));

/** The audience tokens for this API carry (the server's OIDC_AUDIENCE in the tests). */
export const AUDIENCE = 'https://petstore.test/';
/** Another API of the same issuer: its tokens must be refused here. */
export const OTHER_AUDIENCE = 'https://other-api.test/';

/** An RSA signing key as a private JWK, with a key id of its own. */
export function signingKey(): object {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' };
}

export interface IssuerOptions {
  /** Its signing keys, the first one signing (a rotation restarts it with a new key first). */
  keys?: object[];
  /** The port to listen on (the same after a restart, so its issuer URL stays the same). */
  port?: number;
  /** Its issuer URL, where clients reach it, when that is not its own port (a relay in front, as two issuers of one URL take turns behind). */
  url?: string;
  /** Where the front end may be sent back to after signing in. */
  webRedirectUris?: string[];
  /** Lifetime of the short-lived client's tokens, seconds. */
  shortTtlSeconds?: number;
  /** The audience its tokens for the API name (AUDIENCE by default). */
  audience?: string;
}

export interface Issuer {
  url: string;
  port: number;
  keys: object[];
  /** An access token by client credentials, for `scope`, for a resource (this API by default). */
  token(scope: string, options?: { resource?: string; client?: 'petstore-tests' | 'petstore-short' }): Promise<string>;
  /** How many times the key set was fetched since the provider started. */
  jwksFetches(): Promise<number>;
  stop(): Promise<void>;
}

/** oidc-provider as a process on loopback, ready when this resolves. */
export async function startIssuer({
  keys = [signingKey()],
  port,
  webRedirectUris = [],
  shortTtlSeconds = 2,
  audience = AUDIENCE,
  url: issuerUrl,
}: IssuerOptions = {}): Promise<Issuer> {
  const listenOn = port ?? (await freePort());
  const url = issuerUrl ?? `http://127.0.0.1:${listenOn}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', PROCESS], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      ISSUER_PORT: String(listenOn),
      ISSUER_URL: url,
      AUDIENCE: audience,
      OTHER_AUDIENCE,
      JWKS: JSON.stringify(keys),
      WEB_REDIRECT_URIS: webRedirectUris.join(','),
      SHORT_TTL_S: String(shortTtlSeconds),
      HMAC_SECRET: randomUUID() + randomUUID(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the OIDC provider exited (${code}): ${output}`)));
  });
  const configs = new Map<string, Promise<client.Configuration>>();
  const configFor = (id: string) => {
    let config = configs.get(id);
    if (!config) {
      config = client.discovery(new URL(url), id, id === 'petstore-tests' ? 'tests-secret' : 'short-secret', undefined, {
        execute: [client.allowInsecureRequests],
      });
      configs.set(id, config);
    }
    return config;
  };
  return {
    url,
    port: listenOn,
    keys,
    async token(scope, { resource = audience, client: id = 'petstore-tests' } = {}) {
      const tokens = await client.clientCredentialsGrant(await configFor(id), { scope, resource });
      return tokens.access_token;
    },
    async jwksFetches() {
      // Asked of this process itself, whichever one a relay in front sends clients to.
      return ((await (await fetch(`http://127.0.0.1:${listenOn}/test/jwks-fetches`)).json()) as { count: number }).count;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
