import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What an MCP SDK's OAuth client provider keeps between the steps of a sign-in, in memory, as an agent's would. */
export interface AgentOAuth {
  redirectUrl: string;
  clientMetadata: {
    client_name: string;
    redirect_uris: string[];
    grant_types: string[];
    response_types: string[];
    token_endpoint_auth_method: string;
  };
  clientInformation(): Record<string, unknown> | undefined;
  saveClientInformation(info: Record<string, unknown>): void;
  tokens(): { access_token: string; scope?: string } | undefined;
  saveTokens(tokens: { access_token: string; scope?: string }): void;
  redirectToAuthorization(url: URL): void;
  saveCodeVerifier(verifier: string): void;
  codeVerifier(): string;
  /** Where the SDK last sent its person to sign in (redirectToAuthorization), or null. */
  readonly authorizationUrl: URL | null;
  /** What the issuer registered for this client (dynamic registration), as the SDK saved it. */
  readonly registered: Record<string, unknown> | undefined;
  /** The scope of the token the issuer gave, as its answer said. */
  readonly grantedScope: string | undefined;
}

/** An in-memory OAuthClientProvider for the MCP SDKs (1.x and 2.x share its shape): a public client that registers itself. */
export function agentOAuth(redirectUrl: string): AgentOAuth {
  let client: Record<string, unknown> | undefined;
  let tokens: { access_token: string; scope?: string } | undefined;
  let verifier = '';
  let authorizationUrl: URL | null = null;
  return {
    redirectUrl,
    clientMetadata: {
      client_name: 'petstore-tests agent',
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    clientInformation: () => client,
    saveClientInformation: (info) => void (client = info),
    tokens: () => tokens,
    saveTokens: (saved) => void (tokens = saved),
    redirectToAuthorization: (url) => void (authorizationUrl = url),
    saveCodeVerifier: (saved) => void (verifier = saved),
    codeVerifier: () => verifier,
    get authorizationUrl() {
      return authorizationUrl;
    },
    get registered() {
      return client;
    },
    get grantedScope() {
      return tokens?.scope;
    },
  };
}

/** A redirect URI on loopback nobody listens behind: the sign-in stops at its address, which carries the code. */
export async function loopbackRedirect(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => res.end('signed in'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** What the issuer sends the browser back with: the authorization code, and the issuer that gave it (RFC 9207). */
export interface SignedIn {
  code: string;
  iss: string | undefined;
}

/**
 * A person signing in at oidc-provider's development pages (any login and password), and
 * consenting, as a browser would: each redirect followed with the cookies it set, each form
 * posted, until the issuer sends the browser to `redirectUri`, with the code.
 */
export async function signInAt(authorizationUrl: URL, redirectUri: string, login = 'agent-person'): Promise<SignedIn> {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const send = async (url: URL, init: RequestInit = {}) => {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, ...(cookie ? { cookie } : {}) } });
    remember(response);
    return response;
  };
  let url = authorizationUrl;
  for (let step = 0; step < 20; step++) {
    if (url.href.startsWith(redirectUri)) {
      const code = url.searchParams.get('code');
      if (!code) throw new Error(`the issuer sent the browser back without a code: ${url.href}`);
      return { code, iss: url.searchParams.get('iss') ?? undefined };
    }
    const response = await send(url);
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`no sign-in form at ${url.href} (${response.status}): ${page.slice(0, 300)}`);
    const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
    const posted = await send(new URL(action, url), {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const next = posted.headers.get('location');
    if (!next) throw new Error(`the ${prompt} form was not accepted (${posted.status}): ${(await posted.text()).slice(0, 300)}`);
    url = new URL(next, url);
  }
  throw new Error('the sign-in did not end in 20 steps');
}
