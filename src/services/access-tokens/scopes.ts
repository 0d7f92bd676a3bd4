/**
 * What a credential may do, by OAuth scope: read the store (queries, subscriptions, GETs),
 * change it (mutations, POST/PATCH/DELETE), and manage API keys (`/v1/keys`, `myKeys`,
 * `createKey`, `revokeKey`), which a signed-in front end has no need of unless granted.
 */
export const SCOPES = ['petstore:read', 'petstore:write', 'petstore:keys'] as const;
export type Scope = (typeof SCOPES)[number];

const KNOWN = new Set<string>(SCOPES);

export const isScope = (value: string): value is Scope => KNOWN.has(value);

/** What needs no scope at all. */
export const NO_SCOPES: ReadonlySet<Scope> = new Set();

/**
 * The scopes a token grants: RFC 9068's space-separated `scope`, or the `scp` list some issuers
 * send (Okta, Azure). Those this server does not know are left out.
 */
export function grantedScopes(claims: { scope?: unknown; scp?: unknown }): ReadonlySet<Scope> {
  const listed = typeof claims.scope === 'string' ? claims.scope.split(' ') : Array.isArray(claims.scp) ? claims.scp : [];
  return new Set(listed.filter((value): value is Scope => typeof value === 'string' && isScope(value)));
}

/** A key's scopes as stored (space-separated), or null for a key that may do everything. */
export function storedScopes(text: string | null): ReadonlySet<Scope> | null {
  return text === null ? null : new Set(text.split(' ').filter(isScope));
}
