import { hash } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import type { Kysely } from 'kysely';
import type { DataVersion } from '../../db/data-version.ts';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { boundedLru } from '../../util/bounded-lru.ts';
import { accountForSubject } from '../accounts/account-for-subject.ts';
import type { Principal } from '../principal.ts';
import { issuerKeys } from './issuer-keys.ts';
import type { IssuerKeys } from './issuer-keys.ts';
import { grantedScopes } from './scopes.ts';

/** Why a token was refused, as metrics count it (petstore_access_token_refusals_total{reason}). */
export type TokenRefusalReason =
  | 'malformed'
  | 'algorithm'
  | 'issuer'
  | 'signature'
  | 'expired'
  | 'not_yet_valid'
  | 'audience'
  | 'no_subject'
  | 'no_account'
  | 'account_disabled'
  | 'issuer_unavailable';

/** The principal a token stands for, or the refusal to answer with (401, or 503 while its issuer cannot be reached). */
export type TokenVerdict = Principal | AppError;

export interface TokenVerifierOptions {
  /** The issuers whose tokens are accepted, exactly as their tokens' `iss` and metadata name them. */
  issuers: readonly string[];
  /** What the tokens' `aud` must contain: this API's resource identifier. */
  audience: string;
  /** The claim that names the account (default `sub`). */
  accountClaim: string;
  /** A subject without an account gets one (as sign-up would), or is refused. */
  newSubjects: 'create' | 'refuse';
  clockSkewSeconds: number;
  /** Asymmetric algorithms only: `none` and HMAC never verify a token here. */
  algorithms: readonly string[];
  refreshCooldownMs: number;
  onRefusal?: (reason: TokenRefusalReason) => void;
  onIssuerUnreachable?: (issuer: string, why: string) => void;
  onIssuerReached?: (issuer: string) => void;
}

export interface TokenVerifier {
  /** Whether a bearer credential is shaped as a JWT (three base64url parts), so this verifier, not the API keys', should judge it. */
  claims(credential: string): boolean;
  /** The verdict without I/O: for a token verified recently, with nothing written since and not yet expired. */
  recall(token: string): TokenVerdict | undefined;
  /** The verdict; `admit` runs before an account is made for a new subject, and may refuse it by throwing. */
  verify(token: string, admit?: () => Promise<void>): Promise<TokenVerdict>;
  close(): void;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** RFC 9068's header type; many issuers (Keycloak among them) still send plain JWT or none. */
const TOKEN_TYPES = new Set(['at+jwt', 'application/at+jwt', 'jwt']);
/** A verified token is trusted this long at most without reading its account again, as a key is. */
const CACHE_TTL_MS = 60_000;
const CACHE_SIZE = 10_000;
/** A subject that can name an account on every engine: OpenID Connect's 255 characters, none a control character (PostgreSQL's text holds no U+0000). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it refuses
const STORABLE_SUBJECT = /^[^\u0000-\u001f\u007f]{1,255}$/;

interface Verified {
  principal: Principal;
  version: string;
  until: number;
}

/**
 * Checks bearer JWT access tokens (RFC 9068) from the configured OpenID Connect issuers: the
 * algorithm (asymmetric, as configured), the signature by a key the issuer publishes, `iss`,
 * `aud`, `exp` and `nbf` within the clock skew, then the account the subject belongs to. Each
 * failure is the 401 it calls for, saying which check failed only where that tells the holder
 * nothing about the server's keys (an expired token, one for another audience, from an issuer
 * not trusted here); a bad signature, algorithm or shape is one answer. A token verified once is
 * remembered by its hash (never itself) until it expires, for a minute at most, and until the
 * database's data version moves, as a key is.
 */
export function createTokenVerifier(db: Kysely<Database>, dataVersion: DataVersion, options: TokenVerifierOptions): TokenVerifier {
  const { audience, accountClaim, newSubjects, clockSkewSeconds, algorithms, refreshCooldownMs, onRefusal } = options;
  const issuers = new Map<string, IssuerKeys>(
    options.issuers.map((issuer) => [
      issuer,
      issuerKeys(issuer, {
        refreshCooldownMs,
        onUnreachable: options.onIssuerUnreachable ?? (() => undefined),
        onReached: options.onIssuerReached ?? (() => undefined),
      }),
    ]),
  );
  const allowed = new Set(algorithms);
  // Each entry counts as 1: the bound is CACHE_SIZE tokens, the least recently used out first.
  const verified = boundedLru<Verified>(CACHE_SIZE);

  const refuse = (reason: TokenRefusalReason, error: AppError): AppError => {
    onRefusal?.(reason);
    return error;
  };
  const invalid = (reason: TokenRefusalReason) => refuse(reason, AppError.of('UNAUTHORIZED', 'tokenInvalid'));
  const unavailable = () => refuse('issuer_unavailable', AppError.of('ISSUER_UNAVAILABLE', 'unreachable'));

  function recalled(slot: string, version: string): Principal | undefined {
    const hit = verified.get(slot);
    if (!hit || hit.version !== version || hit.until <= Date.now()) return undefined;
    return hit.principal;
  }

  /**
   * The refusal jose's error stands for. A key id the issuer's set lacks is a bad signature,
   * whether or not the set could be fetched again for it: within the refresh cooldown the set
   * is as fresh as the issuer lets it be, and calling a made-up kid an outage (503) would make
   * an attack look like one. A key the issuer really just rotated in works after the cooldown.
   */
  function refusalOf(error: unknown): AppError {
    if (error instanceof errors.JWTExpired) return refuse('expired', AppError.of('UNAUTHORIZED', 'tokenExpired'));
    if (error instanceof errors.JWTClaimValidationFailed) {
      if (error.claim === 'nbf' || error.claim === 'iat') return refuse('not_yet_valid', AppError.of('UNAUTHORIZED', 'tokenNotYetValid'));
      if (error.claim === 'aud') return refuse('audience', AppError.of('UNAUTHORIZED', 'tokenAudience', { audience }));
      if (error.claim === 'iss') return refuse('issuer', AppError.of('UNAUTHORIZED', 'tokenIssuer'));
      return invalid('malformed');
    }
    // The issuer could not be asked for its keys, or answered something that is not a key set.
    if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || error instanceof TypeError) return unavailable();
    if (error instanceof errors.JOSEAlgNotAllowed) return invalid('algorithm');
    if (error instanceof errors.JOSEError) return invalid('signature');
    throw error;
  }

  async function check(token: string, slot: string, version: string, admit?: () => Promise<void>): Promise<TokenVerdict> {
    let payload: JWTPayload;
    let header;
    try {
      header = decodeProtectedHeader(token);
      payload = decodeJwt(token);
    } catch {
      return invalid('malformed');
    }
    if (typeof header.alg !== 'string' || !allowed.has(header.alg)) return invalid('algorithm');
    if (header.typ !== undefined && !TOKEN_TYPES.has(header.typ.toLowerCase())) return invalid('malformed');
    const issuer = typeof payload.iss === 'string' ? issuers.get(payload.iss) : undefined;
    if (!issuer) return refuse('issuer', AppError.of('UNAUTHORIZED', 'tokenIssuer'));
    const keys = issuer.keys();
    if (!keys) return unavailable();
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: issuer.issuer,
        audience,
        algorithms: [...allowed],
        clockTolerance: clockSkewSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      return refusalOf(error);
    }
    const subject = payload[accountClaim];
    if (typeof subject !== 'string' || subject === '') {
      return refuse('no_subject', AppError.of('UNAUTHORIZED', 'tokenNoSubject', { claim: accountClaim }));
    }
    if (!STORABLE_SUBJECT.test(subject))
      return refuse('no_subject', AppError.of('UNAUTHORIZED', 'tokenBadSubject', { claim: accountClaim }));
    const account = await accountForSubject(db, issuer.issuer, subject, { create: newSubjects === 'create', admit });
    if (!account) return refuse('no_account', AppError.of('UNAUTHORIZED', 'tokenNoAccount'));
    if (account.disabled) return refuse('account_disabled', AppError.of('UNAUTHORIZED', 'tokenAccountDisabled'));
    const expiresAt = (payload.exp as number) * 1000;
    const principal: Principal = {
      accountId: account.accountId,
      keyId: null,
      token: { issuer: issuer.issuer, subject, expiresAt },
      scopes: grantedScopes(payload as { scope?: unknown; scp?: unknown }),
      bucket: `sub:${hash('sha256', `${issuer.issuer}\n${subject}`, 'base64url').slice(0, 22)}`,
    };
    verified.set(slot, { principal, version, until: Math.min(expiresAt + clockSkewSeconds * 1000, Date.now() + CACHE_TTL_MS) }, 1);
    return principal;
  }

  return {
    claims: (credential) => JWT_SHAPE.test(credential),
    recall(token) {
      return recalled(hash('sha256', token, 'base64'), dataVersion());
    },
    verify(token, admit) {
      const slot = hash('sha256', token, 'base64');
      const version = dataVersion();
      return Promise.resolve(recalled(slot, version) ?? check(token, slot, version, admit));
    },
    close() {
      verified.clear();
      for (const issuer of issuers.values()) issuer.close();
    },
  };
}
