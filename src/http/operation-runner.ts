import type { DocumentNode, ExecutionResult, GraphQLError, GraphQLSchema } from 'graphql';
import type { Scope } from '../services/access-tokens/scopes.ts';
import type { AnswerHeaders, Exchange } from './exchange.ts';

/** One operation to run: a trusted document by id, or its text where text may run, and its variables. */
export interface OperationCall {
  query?: string;
  documentId?: string;
  /** Which operation of the document; absent: its only one. */
  operationName?: string;
  variables: Record<string, unknown>;
}

/**
 * The one GraphQL pipeline as another face calls it (MCP's tools are operations): the GraphQL
 * face builds it, app.ts hands it over, so no adapter imports another. A call is the request's
 * own: the same parse cache, validation, checks (credential, scopes, cost, message quota),
 * executor, metrics and spans as POST /graphql.
 */
export interface OperationRunner {
  readonly schema: GraphQLSchema;
  /** The schema as SDL, directives as applied: what GET /graphql/schema.graphql serves. */
  readonly sdl: string;
  /** What a credential must carry for none of the operation's fields to be refused. */
  scopesOf(document: DocumentNode, operationName?: string | null): ReadonlySet<Scope>;
  /**
   * The same for a call's own text (an agent's document), parsed as running it parses it: under the
   * face's bounds, into the one document cache, so the run that follows parses nothing again.
   * Nothing is needed for a text that does not parse: running it refuses it.
   */
  scopesOfCall(call: OperationCall): ReadonlySet<Scope>;
  /** The result, errors masked and coded as the GraphQL face answers them; a subscription is refused (NOT_ACCEPTABLE). */
  run(exchange: Exchange, answer: AnswerHeaders | null, call: OperationCall): Promise<ExecutionResult>;
  /**
   * A subscription's events, as GraphQL's streaming transports get them (the same checks, per-key
   * cap, revocation ending it with a last error): each result masked, or the one result that
   * refused it before it began.
   */
  subscribe(exchange: Exchange, call: OperationCall): Promise<ExecutionResult | AsyncIterable<ExecutionResult>>;
  /** The errors that would stop the operation before its checks (bounds, syntax, validation against the schema), coded; nothing runs or is charged. */
  check(exchange: Exchange, call: OperationCall): readonly GraphQLError[];
}
