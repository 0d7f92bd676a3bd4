import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { AppError } from '../../errors/index.ts';
import { fromAppError } from '../coded-error.ts';
import { documentIdOf } from '../trusted-document-id.ts';
import type { TrustedDocumentsOptions } from '../trusted-documents.ts';

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
