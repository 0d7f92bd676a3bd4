import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Env } from './env-values.ts';

/**
 * GRAPHQL_TRUSTED_DOCUMENTS: the path of a manifest `{ "sha256:<hex>": "<document>" }` (the
 * prefix optional), as graphql-codegen's client preset writes it (persisted-documents.json).
 * Every id must be the SHA-256 of its document, so a manifest from another build cannot slip
 * in wrong operations. Ids are kept as bare hex.
 */
export function trustedDocuments(problems: string[], env: Env): ReadonlyMap<string, string> | null {
  const path = env.GRAPHQL_TRUSTED_DOCUMENTS;
  if (path === undefined || path === '') return null;
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'it is not JSON' : ((error as NodeJS.ErrnoException).code ?? 'it cannot be read');
    problems.push(`GRAPHQL_TRUSTED_DOCUMENTS: cannot load '${path}' (${reason}).`);
    return null;
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    problems.push(`GRAPHQL_TRUSTED_DOCUMENTS: '${path}' must be a JSON object of "<sha256>": "<document>".`);
    return null;
  }
  const documents = new Map<string, string>();
  for (const [id, document] of Object.entries(manifest)) {
    const hex = id.replace(/^sha256:/, '');
    if (typeof document !== 'string' || createHash('sha256').update(document).digest('hex') !== hex) {
      problems.push(`GRAPHQL_TRUSTED_DOCUMENTS: in '${path}', '${id}' is not the SHA-256 of its document.`);
      return null;
    }
    documents.set(hex, document);
  }
  return documents;
}
