import type { Scope } from './access-tokens/scopes.ts';

/** An access token's holder, as its issuer names them. */
export interface TokenHolder {
  issuer: string;
  /** The value of the token's account claim (`sub` by default). */
  subject: string;
  /** When the token stops being valid (ms since the epoch): its streams end then. */
  expiresAt: number;
}

/** Who is calling, with what credential, allowed to do what. */
export interface Principal {
  accountId: number;
  /** The API key's id; null for an access token. */
  keyId: number | null;
  /** An access token's holder; null for an API key. */
  token: TokenHolder | null;
  /** What the credential may do; null: everything (an API key given no scopes). */
  scopes: ReadonlySet<Scope> | null;
  /**
   * Whose request budget a request spends, and whose streams the per-credential cap counts: a
   * key (`key:<id>`), or a token's holder (`sub:<hash of issuer and subject>`), each of them one
   * caller whichever instance they reach.
   */
  bucket: string;
}

/** Whether the principal's credential carries `scope`. */
export const permits = (principal: Principal, scope: Scope): boolean => principal.scopes === null || principal.scopes.has(scope);
