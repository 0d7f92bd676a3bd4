import * as oidc from 'openid-client';

/**
 * Signing in with the OpenID Connect issuer the server accepts tokens from, where it has one:
 * the server says which (its protected-resource metadata, RFC 9728), and the page signs its
 * person in there by the authorization code flow with PKCE, as a public client (no secret in a
 * browser), asking for an access token for the server (its resource identifier). Without an
 * issuer the page keeps its API key field.
 */

/** This page as the issuer knows it: a public client registered with this page's address as its redirect URI. */
const CLIENT_ID = import.meta.env.VITE_OIDC_CLIENT_ID ?? 'petstore-web';
const SCOPE = 'openid petstore:read petstore:write';
const PENDING = 'petstore-sign-in';

interface ProtectedResource {
  resource: string;
  authorization_servers: string[];
}

export interface SignIn {
  issuer: string;
  /** Sends the person to the issuer's sign-in page; they come back here with a code. */
  start(): Promise<void>;
  /**
   * Where to send the person to end their session at the issuer too (its end_session_endpoint,
   * RP-initiated logout), coming back to this page; null when the issuer has none.
   */
  endSession(idToken: string | null): string | null;
}

/** Who signed in, as the issuer's ID token names them, with the ID token (to end the session). */
export interface SignedIn {
  accessToken: string;
  idToken: string | null;
  /** The name to show: `name`, `preferred_username`, `email` or `sub`, the first the issuer gave. */
  name: string;
}

/** The server's issuer, found through its metadata; null when it accepts API keys only. */
export async function signInWith(): Promise<SignIn | null> {
  const res = await fetch('/.well-known/oauth-protected-resource');
  if (!res.ok) return null;
  const {
    resource,
    authorization_servers: [issuer],
  } = (await res.json()) as ProtectedResource;
  if (!issuer) return null;
  const config = await configuration(issuer);
  return {
    issuer,
    async start() {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, issuer, resource }));
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri(),
        scope: SCOPE,
        resource,
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      location.assign(url.href);
    },
    endSession(idToken) {
      if (!config.serverMetadata().end_session_endpoint) return null;
      return oidc.buildEndSessionUrl(config, {
        post_logout_redirect_uri: redirectUri(),
        client_id: CLIENT_ID,
        ...(idToken ? { id_token_hint: idToken } : {}),
      }).href;
    },
  };
}

/**
 * Back from the issuer with a code (the page's address carries it): the tokens it is exchanged
 * for and who they are for, the address cleaned of the code; null when the page was not opened that way.
 */
export async function finishSignIn(): Promise<SignedIn | null> {
  const pending = sessionStorage.getItem(PENDING);
  const here = new URL(location.href);
  if (!pending || !here.searchParams.has('code')) return null;
  sessionStorage.removeItem(PENDING);
  const { verifier, state, issuer, resource } = JSON.parse(pending) as {
    verifier: string;
    state: string;
    issuer: string;
    resource: string;
  };
  const tokens = await oidc.authorizationCodeGrant(
    await configuration(issuer),
    here,
    { pkceCodeVerifier: verifier, expectedState: state },
    { resource },
  );
  history.replaceState(null, '', redirectUri());
  const claims = tokens.claims();
  const name = [claims?.name, claims?.preferred_username, claims?.email, claims?.sub].find(
    (value) => typeof value === 'string' && value !== '',
  );
  return { accessToken: tokens.access_token, idToken: tokens.id_token ?? null, name: String(name ?? 'you') };
}

const redirectUri = () => `${location.origin}/`;

/** The issuer's metadata; over plain http only on loopback (a development issuer). */
function configuration(issuer: string): Promise<oidc.Configuration> {
  const local = /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\//.test(`${issuer}/`);
  return oidc.discovery(new URL(issuer), CLIENT_ID, undefined, oidc.None(), local ? { execute: [oidc.allowInsecureRequests] } : undefined);
}
