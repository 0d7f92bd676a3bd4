import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { AppError } from '../../errors/index.ts';
import { fromAppError } from '../coded-error.ts';
import { documentIdOf } from '../trusted-document-id.ts';

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
 * else its own text where text may run; the refusal where neither. (Over HTTP the plugin
 * below applies the same rule through usePersistedOperations.)
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

/**
 * Trusted documents (GraphQL over HTTP's persisted documents): a client sends `documentId`
 * (`sha256:<hex>` or bare hex; Apollo's `extensions.persistedQuery.sha256Hash` too) instead
 * of the text, and the server runs the document its manifest has under that id.
 */
export function useTrustedDocuments<Context extends object>({ documents, only }: TrustedDocumentsOptions): Plugin<Context> {
  return usePersistedOperations<Record<string, unknown>>({
    getPersistedOperation: (id) => documents?.get(id) ?? null,
    allowArbitraryOperations: !only,
    // Over GET too (`?documentId=sha256:…`: a short URL a browser can cache), which Yoga's own
    // GET parameters leave out.
    extractPersistedOperationId: (params: GraphQLParams, request: Request) =>
      documentIdOf(params) ??
      (request.method === 'GET' ? documentIdOf({ documentId: new URL(request.url).searchParams.get('documentId') ?? undefined }) : null),
    customErrors: {
      notFound: () => fromAppError(new AppError('UNKNOWN_DOCUMENT')),
      persistedQueryOnly: () => fromAppError(new AppError('TRUSTED_DOCUMENTS_ONLY')),
      keyNotFound: () => fromAppError(AppError.of('VALIDATION_FAILED', 'graphqlNoOperation')),
    },
  }) as Plugin<Context>;
}
