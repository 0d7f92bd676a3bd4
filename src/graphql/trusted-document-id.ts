/** The trusted document a request names, as a bare SHA-256 hex id; null when it names none. */
export function documentIdOf(params: { documentId?: unknown; extensions?: unknown }): string | null {
  const apollo = (params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery?.sha256Hash;
  const id = typeof params.documentId === 'string' ? params.documentId : typeof apollo === 'string' ? apollo : null;
  return id === null ? null : id.replace(/^sha256:/, '');
}
