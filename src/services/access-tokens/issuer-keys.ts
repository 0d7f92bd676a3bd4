import { createRemoteJWKSet } from 'jose';

/** jose's remote key set: verifies with the cached keys, fetching them again as its options say. */
export type RemoteKeys = ReturnType<typeof createRemoteJWKSet>;

/** How long one fetch of the issuer's metadata or keys may take. */
const FETCH_TIMEOUT_MS = 5_000;
/** The longest a fetched key set is used before it is fetched again (a rotation is also found sooner, by an unknown key id). */
const KEYS_MAX_AGE_MS = 10 * 60_000;
/** Waits between discovery attempts while an issuer cannot be reached: doubling up to this. */
const MAX_RETRY_MS = 60_000;

export interface IssuerKeysOptions {
  /** The least time between two fetches of the key set for a key id it lacks: a flood of made-up ids costs one fetch a period. */
  refreshCooldownMs: number;
  /** Told once per outage that the issuer could not be discovered, and why. */
  onUnreachable: (issuer: string, why: string) => void;
  /** Told when it was reached again. */
  onReached: (issuer: string) => void;
}

/** One OpenID Connect issuer's signing keys, found through its metadata. */
export interface IssuerKeys {
  readonly issuer: string;
  /** The key set, once the issuer's metadata was read; null until then. Asking starts discovery if it is not under way. */
  keys(): RemoteKeys | null;
  close(): void;
}

/** The issuer's metadata, checked: it must name itself as configured, and say where its keys are. */
async function discover(issuer: string): Promise<URL> {
  const response = await fetch(new URL('.well-known/openid-configuration', issuer.endsWith('/') ? issuer : `${issuer}/`), {
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`its metadata answered ${response.status}`);
  let metadata: unknown;
  try {
    metadata = await response.json();
  } catch {
    throw new Error('its metadata is not JSON');
  }
  const { issuer: named, jwks_uri: jwksUri } = (metadata ?? {}) as { issuer?: unknown; jwks_uri?: unknown };
  // RFC 8414 §3.3: metadata naming another issuer must not be used.
  if (named !== issuer) throw new Error(`its metadata names the issuer '${String(named)}'`);
  if (typeof jwksUri !== 'string' || !/^https?:\/\//.test(jwksUri)) throw new Error('its metadata has no jwks_uri');
  return new URL(jwksUri);
}

/**
 * Discovers an issuer at once and, while it cannot be reached (or answers something that is not
 * its metadata), again after 1 s, 2 s, 4 s … up to a minute: the server starts and serves API
 * keys meanwhile, and its tokens are refused as unavailable. The key set is jose's remote set:
 * cached, fetched again after KEYS_MAX_AGE_MS, or sooner for a key id it lacks (a rotation),
 * at most once per `refreshCooldownMs`.
 */
export function issuerKeys(issuer: string, { refreshCooldownMs, onUnreachable, onReached }: IssuerKeysOptions): IssuerKeys {
  let keySet: RemoteKeys | null = null;
  let discovering: Promise<void> | null = null;
  let retryAt = 0;
  let backoffMs = 1_000;
  let failing = false;
  let closed = false;

  const attempt = (): void => {
    if (discovering || closed || Date.now() < retryAt) return;
    discovering = discover(issuer)
      .then((jwksUri) => {
        keySet = createRemoteJWKSet(jwksUri, {
          timeoutDuration: FETCH_TIMEOUT_MS,
          cooldownDuration: refreshCooldownMs,
          cacheMaxAge: KEYS_MAX_AGE_MS,
        });
        if (failing) onReached(issuer);
        failing = false;
      })
      .catch((error: unknown) => {
        if (!failing) onUnreachable(issuer, error instanceof Error ? error.message : String(error));
        failing = true;
        retryAt = Date.now() + backoffMs;
        backoffMs = Math.min(backoffMs * 2, MAX_RETRY_MS);
        // Tried again on its own, not only when a token arrives: the first token then finds it ready.
        const timer = setTimeout(attempt, retryAt - Date.now());
        timer.unref();
      })
      .finally(() => (discovering = null));
  };
  attempt();

  return {
    issuer,
    keys() {
      if (!keySet) attempt();
      return keySet;
    },
    close() {
      closed = true;
    },
  };
}
