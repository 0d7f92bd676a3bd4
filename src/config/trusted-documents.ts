import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Env } from './env-values.ts';

/**
 * A trusted-document manifest `{ "sha256:<hex>": "<document>" }` (the prefix optional), as
 * graphql-codegen's client preset writes it (persisted-documents.json): its documents by bare-hex
 * id, or what is wrong with it. Every id must be the SHA-256 of its document, so a manifest from
 * another build cannot slip in wrong operations.
 */
export function readManifest(path: string): Map<string, string> | { problem: string } {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'it is not JSON' : ((error as NodeJS.ErrnoException).code ?? 'it cannot be read');
    return { problem: `cannot load '${path}' (${reason}).` };
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    return { problem: `'${path}' must be a JSON object of "<sha256>": "<document>".` };
  }
  const documents = new Map<string, string>();
  for (const [id, document] of Object.entries(manifest)) {
    const hex = id.replace(/^sha256:/, '');
    if (typeof document !== 'string' || createHash('sha256').update(document).digest('hex') !== hex) {
      return { problem: `in '${path}', '${id}' is not the SHA-256 of its document.` };
    }
    documents.set(hex, document);
  }
  return documents;
}

/**
 * GRAPHQL_TRUSTED_DOCUMENTS: the path of the manifest (readManifest). The map is the server's for
 * its whole life: a reload (reload-manifest.ts) replaces its entries in place.
 */
export function trustedDocuments(problems: string[], env: Env): Map<string, string> | null {
  const path = env.GRAPHQL_TRUSTED_DOCUMENTS;
  if (path === undefined || path === '') return null;
  const read = readManifest(path);
  if (read instanceof Map) return read;
  problems.push(`GRAPHQL_TRUSTED_DOCUMENTS: ${read.problem}`);
  return null;
}
