import { Kind } from 'graphql';
import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { Scope } from '../services/access-tokens/scopes.ts';
import type { VersionedTable } from '../services/versions/index.ts';
import type { Executor } from './execution/operation-executor.ts';
import type { OperationCost } from './query-cost.ts';

/** What is worked out once about a whole document. */
export interface DocumentFacts {
  /** Its validation errors under the server's rules, coded (execution/document-validator.ts); empty: valid. */
  validation: readonly GraphQLError[];
  /** Whether it asks for part of its answer later: @defer, @stream (execution/incremental-delivery.ts). */
  incremental: boolean;
  /** The same document without @defer and @stream, for a client that takes JSON. */
  plain: DocumentNode;
}

/** What is worked out once about one operation of a document, chosen by its name. */
export interface OperationFacts {
  /** Its type and name, for metrics and traces (operation-of.ts). */
  kind: { type: string; name: string | undefined };
  /** The top-level fields written, @skip and @include aside (root-fields.ts). */
  writtenRootFields: readonly string[];
  /** What its fields need of a credential (scopes.ts). */
  scopes: ReadonlySet<Scope>;
  /** How it runs: compiled by graphql-jit or the stock executor (execution/operation-executor.ts). */
  executor: Executor;
  /** The tables a kept answer depends on, or null: its answer is not kept (cacheable-query.ts). */
  reads: readonly VersionedTable[] | null;
  /** Its cost when it has no variables, the same on every run (checks/limit-cost.ts). */
  fixedCost: OperationCost;
}

/**
 * The one cache entry of a document, as Mercurius keeps one per query (its document, validation
 * errors and compiled query): every fact a guarantee needs about a document or one of its
 * operations is a field here, worked out the first time a request asks and then read by every
 * path (the route, streams, graphql-ws, MCP's tools). The parser hands back the same document for
 * the same text (parse-document.ts), so an entry lives as long as the parser keeps the document
 * and goes with it: nothing here is bounded separately.
 */
interface DocumentEntry {
  /**
   * The schema the facts that depend on one were worked out against. A document comes from one
   * app's parser, so from one schema; a document another schema asks about (a test sharing a
   * parsed constant between two apps) is answered afresh rather than from a stranger's facts.
   */
  schema: GraphQLSchema | undefined;
  readonly facts: Partial<DocumentFacts>;
  /** By operation name, '' when none is given. */
  readonly operations: Map<string, Partial<OperationFacts>>;
  /** The names of the document's operations, once one is asked for. */
  names?: ReadonlySet<string>;
}

// The one place a document keys a map (eslint.config.js).
// eslint-disable-next-line no-restricted-syntax
const entries = new WeakMap<DocumentNode, DocumentEntry>();

function entryOf(document: DocumentNode): DocumentEntry {
  let entry = entries.get(document);
  if (!entry) entries.set(document, (entry = { schema: undefined, facts: {}, operations: new Map() }));
  return entry;
}

/** Whether `schema`'s facts may be kept in (or read from) `entry`. */
function owns(entry: DocumentEntry, schema: GraphQLSchema | undefined): boolean {
  if (schema === undefined) return true;
  entry.schema ??= schema;
  return entry.schema === schema;
}

/**
 * A fact about `document`, worked out by `compute` once; `schema` when it depends on one.
 * `compute` takes what it needs as arguments, so a caller passes a function made once, not a
 * closure made per request.
 */
export function documentFact<K extends keyof DocumentFacts>(
  document: DocumentNode,
  key: K,
  compute: (document: DocumentNode) => DocumentFacts[K],
  schema?: GraphQLSchema,
): DocumentFacts[K] {
  const entry = entryOf(document);
  if (!owns(entry, schema)) return compute(document);
  const value = entry.facts[key];
  return value !== undefined ? value : (entry.facts[key] = compute(document));
}

/** A fact about the operation `operationName` of `document`, worked out by `compute` once (a function made once); `schema` when it depends on one. */
export function operationFact<K extends keyof OperationFacts>(
  document: DocumentNode,
  operationName: string | null | undefined,
  key: K,
  compute: (document: DocumentNode, operationName: string | null | undefined) => OperationFacts[K],
  schema?: GraphQLSchema,
): OperationFacts[K] {
  const entry = entryOf(document);
  if (!owns(entry, schema)) return compute(document, operationName);
  const name = operationName ?? '';
  let facts = entry.operations.get(name);
  if (!facts) {
    // The name is the client's: kept only for an operation the document has (or none named),
    // so whatever is sent, an entry holds no more than the document's operations.
    entry.names ??= new Set(document.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION && d.name ? [d.name.value] : [])));
    if (name !== '' && !entry.names.has(name)) return compute(document, operationName);
    entry.operations.set(name, (facts = {}));
  }
  const value = facts[key];
  return value !== undefined ? value : (facts[key] = compute(document, operationName));
}
