import { AppError } from '../../errors/index.ts';

const BEARER = /^Bearer +([^ ]+) *$/i;

/** Contract §5: `Authorization: Bearer <API_KEY>`; the scheme is case-insensitive (RFC 9110 §11.1). Shared by REST and GraphQL. */
export function bearerToken(header: string | undefined): string | null {
  const match = header === undefined ? null : BEARER.exec(header);
  return match?.[1] ?? null;
}

export const WWW_AUTHENTICATE = 'Bearer realm="petstore"';

/** The 401 for a request without a valid key, saying which of the mistakes it was. The same words on both faces. */
export function unauthorized(header: string | undefined, accountDisabled = false): AppError {
  if (header === undefined || /^(Bearer)? *$/i.test(header)) return new AppError('UNAUTHORIZED');
  if (bearerToken(header) === null) return AppError.of('UNAUTHORIZED', 'notBearer');
  return AppError.of('UNAUTHORIZED', accountDisabled ? 'accountDisabled' : 'invalidKey');
}
