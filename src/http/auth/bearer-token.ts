import { AppError } from '../../errors/index.ts';

const BEARER = /^Bearer +([^ ]+) *$/i;

/** Contract §5: `Authorization: Bearer <API_KEY>`; the scheme is case-insensitive (RFC 9110 §11.1). Shared by REST and GraphQL. */
export function bearerToken(header: string | undefined): string | null {
  const match = header === undefined ? null : BEARER.exec(header);
  return match?.[1] ?? null;
}

export const WWW_AUTHENTICATE = 'Bearer realm="petstore"';

/**
 * RFC 6750's challenge for a refusal that calls for one: the realm for a missing or bad key;
 * `error="invalid_token"` and what failed for an access token refused; `error="insufficient_scope"`
 * and the scope needed for a credential that may not do what it asked (403). Null otherwise.
 */
export function bearerChallenge(error: Pick<AppError, 'code' | 'message' | 'said'>): string | null {
  if (error.code === 'INSUFFICIENT_SCOPE') {
    const scope = error.said?.params?.scope;
    return `${WWW_AUTHENTICATE}, error="insufficient_scope"${scope === undefined ? '' : `, scope="${scope}"`}`;
  }
  if (error.code !== 'UNAUTHORIZED') return null;
  if (!error.said?.name.startsWith('token')) return WWW_AUTHENTICATE;
  // A header value is quoted ASCII: the catalogue's words are, but a quote or backslash would end it.
  return `${WWW_AUTHENTICATE}, error="invalid_token", error_description="${error.message.replace(/["\\]/g, '')}"`;
}

/** The 401 for a request without a valid key, saying which of the mistakes it was. The same words on both faces. */
export function unauthorized(header: string | undefined): AppError {
  if (header === undefined || /^(Bearer)? *$/i.test(header)) return new AppError('UNAUTHORIZED');
  if (bearerToken(header) === null) return AppError.of('UNAUTHORIZED', 'notBearer');
  return AppError.of('UNAUTHORIZED', 'invalidKey');
}
