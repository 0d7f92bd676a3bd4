import type { FastifyRequest } from 'fastify';
import { getOperationAST } from 'graphql';
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import { AppError } from '../../errors/index.ts';
import { unauthorized } from '../../http/auth/bearer-token.ts';
import type { DocumentParser } from '../parse-document.ts';
import { graphqlExchangeOf } from './graphql-exchange.ts';
// The one place a request's parameters and text are read (eslint.config.js).
// eslint-disable-next-line no-restricted-imports
import { documentText } from '../trusted-documents.ts';
import type { TrustedDocumentsOptions } from '../trusted-documents.ts';
// eslint-disable-next-line no-restricted-imports
import { readParams } from './graphql-params.ts';
import type { RequestParams } from './graphql-params.ts';

/**
 * The one record of what a request asks GraphQL for, resolved once from its parameters: the text
 * it runs under the trusted-documents rule, that text parsed within the limits (its one cache
 * entry, document-entry.ts), and the operation it names. Every guarantee reads this record, not
 * the request: how it is answered (answer-kind.ts), whether an Idempotency-Key applies, the
 * response cache's key, and the pipeline that runs it (run-graphql.ts), whatever carried it (a
 * GET, a POST, a socket's subscribe, a tool call).
 */
export interface OperationRequest {
  params: RequestParams;
  /** The text run (a trusted document's, for an id), or null: none may run (the refusal is `document`). */
  text: string | null;
  /** The document parsed within every limit, or why none runs (thrown by the pipeline, which shapes it). */
  document: DocumentNode | Error;
  /** The operation `params.operationName` picks, or null: none does, or there is no document. */
  operation: OperationDefinitionNode | null;
}

export interface OperationRequests {
  /** The record of parameters a transport has read itself (a socket's subscribe, a tool call). */
  of(params: RequestParams): OperationRequest;
  /**
   * The record of a GraphQL over HTTP request, resolved the first time anything asks and then
   * shared, or the refusal of a request whose parameters are malformed (graphql-params.ts).
   */
  ofRequest(req: FastifyRequest): OperationRequest | AppError;
}

export interface OperationRequestsOptions {
  trusted: TrustedDocumentsOptions;
  documents: DocumentParser;
  /** Runs the parse in a phase span where tracing is on (operation-spans.ts). */
  phase: <T>(name: string, wrapped: () => T) => T;
  /**
   * A request without a valid credential is refused before its document is read: where the
   * schema is not public (introspection off), a caller with no key must neither learn it from
   * validation's words nor spend the server's time parsing and validating what it sends.
   */
  keyRequired: boolean;
}

export function operationRequests({ trusted, documents, phase, keyRequired }: OperationRequestsOptions): OperationRequests {
  const parse = (text: string) => documents.parse(text);
  function of(params: RequestParams): OperationRequest {
    const text = documentText(trusted, params);
    if (text instanceof AppError) return { params, text: null, document: text, operation: null };
    let document: DocumentNode | Error;
    try {
      document = phase('graphql.parse', () => parse(text));
    } catch (error) {
      // A refusal of the text (coded), or a fault the pipeline logs as unexpected.
      document = error instanceof Error ? error : new Error(String(error));
    }
    const operation = document instanceof Error ? null : (getOperationAST(document, params.operationName) ?? null);
    return { params, text, document, operation };
  }
  function ofRequest(req: FastifyRequest): OperationRequest | AppError {
    const exchange = graphqlExchangeOf(req);
    if (exchange.asked === undefined) {
      try {
        exchange.asked = keyRequired && !req.principal ? (req.authRefusal ?? unauthorized(req.headers.authorization)) : of(readParams(req));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        exchange.asked = error;
      }
    }
    return exchange.asked;
  }
  return { of, ofRequest };
}
