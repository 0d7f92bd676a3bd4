import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors/index.ts';
import { fromAppError } from '../coded-error.ts';
import { documentText } from '../trusted-documents.ts';
import type { TrustedDocumentsOptions } from '../trusted-documents.ts';

/**
 * Trusted documents on Yoga's streams (SSE, multipart), by the rule every path applies
 * (trusted-documents.ts): a client sends `documentId` (`sha256:<hex>` or bare hex; Apollo's
 * `extensions.persistedQuery.sha256Hash` too; over GET `?documentId=`, a short URL an
 * EventSource can open) instead of the text, and the manifest's document runs.
 */
export function useTrustedDocuments<Context extends object>(policy: TrustedDocumentsOptions): Plugin<Context> {
  return {
    onParams({ params, request, setParams }) {
      const sent = params as typeof params & { documentId?: unknown };
      // Yoga's own GET parameters leave documentId out.
      const documentId =
        sent.documentId ?? (request.method === 'GET' ? (new URL(request.url).searchParams.get('documentId') ?? undefined) : undefined);
      const text = documentText(policy, { ...sent, documentId });
      if (text instanceof AppError) throw fromAppError(text);
      // The parameters Yoga checks next, documentId gone: it would refuse one it does not know.
      setParams({ query: text, operationName: params.operationName, variables: params.variables, extensions: params.extensions });
    },
  };
}
