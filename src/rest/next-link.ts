/**
 * RFC 8288 `Link: <…>; rel="next"` for a keyset page, repeating the caller's limit and
 * filter; null on the last page.
 */
export function nextLink(path: string, query: { limit?: number; status?: string }, nextCursor: string | null): string | null {
  if (nextCursor === null) return null;
  const params = new URLSearchParams();
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.status !== undefined) params.set('status', query.status);
  params.set('cursor', nextCursor);
  return `<${path}?${params.toString()}>; rel="next"`;
}
