import type { DocumentNode } from 'graphql';

/**
 * `compute` remembered per parsed document and operation name: Yoga's parse cache hands back the
 * same document for the same text, so a busy operation is computed once, not per request.
 */
export function perOperation<T>(
  compute: (document: DocumentNode, operationName: string | null | undefined) => T,
): (document: DocumentNode, operationName: string | null | undefined) => T {
  const byDocument = new WeakMap<DocumentNode, Map<string, T>>();
  return (document, operationName) => {
    let byName = byDocument.get(document);
    if (!byName) byDocument.set(document, (byName = new Map()));
    const key = operationName ?? '';
    if (byName.has(key)) return byName.get(key) as T;
    const value = compute(document, operationName);
    byName.set(key, value);
    return value;
  };
}
