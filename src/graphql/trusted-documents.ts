import { AppError } from '../errors/index.ts';
import { documentIdOf } from './trusted-document-id.ts';

export interface TrustedDocumentsOptions {
  /** Documents by id; null when the server has none (every documentId is then unknown). */
  documents: ReadonlyMap<string, string> | null;
  /** Refuse query text: only the documents run (production with a manifest). */
  only: boolean;
}

/** The policy a server's settings make: only the manifest's documents run in production, where there is one. */
export function trustedDocumentsPolicy(production: boolean, documents: ReadonlyMap<string, string> | null): TrustedDocumentsOptions {
  return { documents, only: production && documents !== null };
}

/**
 * The text an operation runs under the policy: the manifest's document when it names one,
 * else its own text where text may run; the refusal where neither. Every path applies it: the
 * route's pipeline (JSON, streams, graphql-ws, MCP's tools) and the response cache.
 */
export function documentText(
  { documents, only }: TrustedDocumentsOptions,
  params: { query?: unknown; documentId?: unknown; extensions?: unknown },
): string | AppError {
  const id = documentIdOf(params);
  if (id !== null) return documents?.get(id) ?? new AppError('UNKNOWN_DOCUMENT');
  if (only || typeof params.query !== 'string') return new AppError('TRUSTED_DOCUMENTS_ONLY');
  return params.query;
}
