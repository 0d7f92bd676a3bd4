import { integer, oneOf } from './env-values.ts';
import type { Env } from './env-values.ts';
import { withoutCredentials } from './without-credentials.ts';

/** Access tokens from OpenID Connect issuers (OIDC_ISSUERS): null while none is configured. */
export interface OidcConfig {
  /** Issuer identifiers, exactly as their tokens' `iss` and their metadata name them. */
  issuers: string[];
  /** This API's resource identifier: what a token's `aud` must contain (OIDC_AUDIENCE). */
  audience: string;
  /** The claim that names a token's account (OIDC_ACCOUNT_CLAIM, default sub). */
  accountClaim: string;
  /** A subject seen for the first time: `create` an account for it, or `refuse` the token (OIDC_NEW_SUBJECTS, default refuse). */
  newSubjects: 'create' | 'refuse';
  /** Leeway for `exp` and `nbf`, seconds (OIDC_CLOCK_SKEW_S, default 30). */
  clockSkewSeconds: number;
  /** The signing algorithms accepted (OIDC_ALGORITHMS): asymmetric only. */
  algorithms: string[];
  /** The least time between two fetches of an issuer's keys for a key id it lacks (OIDC_KEYS_REFRESH_MIN_S, default 30). */
  refreshCooldownMs: number;
}

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'];

const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/**
 * The OIDC_* settings, checked together: an issuer must be https (http only on loopback, for
 * development), an audience is required with any issuer, and no symmetric algorithm or `none`
 * may be accepted (a key shared with the issuer would let anyone who holds it mint tokens).
 */
export function oidcConfig(problems: string[], env: Env): OidcConfig | null {
  const issuers = (env.OIDC_ISSUERS ?? '')
    .split(',')
    .map((issuer) => issuer.trim())
    .filter(Boolean);
  if (issuers.length === 0) {
    if (env.OIDC_AUDIENCE) problems.push('OIDC_AUDIENCE is set but OIDC_ISSUERS is not: name the issuers whose tokens to accept.');
    return null;
  }
  for (const issuer of issuers) {
    let url: URL | null = null;
    try {
      url = new URL(issuer);
    } catch {
      // reported below
    }
    if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url)))) {
      problems.push(`OIDC_ISSUERS must list https URLs (http only on loopback), comma-separated (got '${withoutCredentials(issuer)}').`);
    }
  }
  const audience = env.OIDC_AUDIENCE?.trim() ?? '';
  if (audience === '')
    problems.push("OIDC_AUDIENCE must be set with OIDC_ISSUERS: this API's resource identifier, which tokens' aud must name.");
  const algorithms = (env.OIDC_ALGORITHMS ?? '')
    .split(',')
    .map((alg) => alg.trim())
    .filter(Boolean);
  for (const alg of algorithms) {
    if (!ASYMMETRIC.includes(alg))
      problems.push(`OIDC_ALGORITHMS must list asymmetric algorithms (${ASYMMETRIC.join(', ')}); got '${alg}'.`);
  }
  return {
    issuers,
    audience,
    accountClaim: env.OIDC_ACCOUNT_CLAIM?.trim() || 'sub',
    newSubjects: oneOf(problems, env, 'OIDC_NEW_SUBJECTS', ['create', 'refuse'] as const, 'refuse'),
    clockSkewSeconds: integer(problems, env, 'OIDC_CLOCK_SKEW_S', 30, 0, 300),
    algorithms: algorithms.length > 0 ? algorithms : DEFAULT_ALGORITHMS,
    refreshCooldownMs: integer(problems, env, 'OIDC_KEYS_REFRESH_MIN_S', 30, 1, 3_600) * 1000,
  };
}
