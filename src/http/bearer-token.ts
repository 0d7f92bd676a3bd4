/** Contract §5: `Authorization: Bearer <API_KEY>`; the scheme is case-insensitive (RFC 9110 §11.1). Shared by REST and GraphQL. */
export function bearerToken(header: string | undefined): string | null {
  const match = header === undefined ? null : /^Bearer +([^ ]+) *$/i.exec(header);
  return match?.[1] ?? null;
}

export const WWW_AUTHENTICATE = 'Bearer realm="petstore"';
