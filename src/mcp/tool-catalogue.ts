import { hash } from 'node:crypto';
import { getArgumentValues, Kind, parse, validate } from 'graphql';
import type { DocumentNode, GraphQLError, FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { Scope } from '../services/access-tokens/scopes.ts';
import { effectOf } from '../util/mutation-effect.ts';
import { createValidator } from '../services/validation/validator.ts';
import type { Validator } from '../services/validation/validator.ts';
import { defaultDocuments } from './default-documents.ts';
import { dataSchema, variablesSchema } from './json-schema-of.ts';
import type { JsonSchema } from './json-schema-of.ts';

/** A tool as tools/list shows it. */
export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
}

/** MCP's annotations of a tool: hints a client may show or act on (a confirmation before a destructive call). */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  /** Meaningful for a tool that writes: a read-only one leaves both out. */
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

/** The directive a manifest's operation overrides its tool's title and hints with (schema/tools.graphql). */
const TOOL_DIRECTIVE = 'mcpTool';

/**
 * A tool's annotations, read from what its operation does: a query reads only; a mutation is
 * destructive unless every root field it runs only adds, and idempotent unless one adds
 * (util/mutation-effect.ts, stated per mutation in the schema). No tool reaches past this store
 * (openWorldHint false). An `@mcpTool` on the operation overrides any of them.
 */
function annotationsOf(schema: GraphQLSchema, operation: OperationDefinitionNode, title: string): ToolAnnotations {
  const mutation = operation.operation === 'mutation';
  const fields = schema.getMutationType()?.getFields() ?? {};
  const effects = operation.selectionSet.selections.flatMap((selection) =>
    selection.kind === Kind.FIELD && fields[selection.name.value] ? [effectOf(fields[selection.name.value] ?? {})] : [],
  );
  const read: ToolAnnotations = mutation
    ? {
        title,
        readOnlyHint: false,
        destructiveHint: effects.some((effect) => effect !== 'adds'),
        idempotentHint: effects.every((effect) => effect !== 'adds'),
        openWorldHint: false,
      }
    : { title, readOnlyHint: true, openWorldHint: false };
  const directive = operation.directives?.find((node) => node.name.value === TOOL_DIRECTIVE);
  const definition = schema.getDirective(TOOL_DIRECTIVE);
  const overrides = directive && definition ? getArgumentValues(definition, directive) : {};
  return { ...read, ...overrides };
}

/** A tool and what running it takes: its operation, where its document comes from, what it needs of a credential. */
export interface Tool {
  listing: ToolListing;
  /** An operation of a document (the catalogue's), or one of the tools that take an agent's own document (graphql-tools.ts). */
  kind: 'operation' | 'validate' | 'execute';
  operationName: string;
  /** The trusted document's id (bare hex) when the tool is the manifest's; else its text runs. */
  documentId: string | null;
  text: string;
  mutation: boolean;
  scopes: ReadonlySet<Scope>;
  /** Checks arguments against the input schema: the arguments, or VALIDATION_FAILED naming the first one wrong. */
  checkArguments: Validator<Record<string, unknown>>;
}

/**
 * A subscription operation as something an agent listens to: a resource template
 * (`petstore://subscriptions/<name>{?variables}`) whose URIs go in subscriptions/listen's
 * `resourceSubscriptions`; each event is a `notifications/resources/updated` carrying its data.
 */
export interface EventSource {
  template: { uriTemplate: string; name: string; title: string; description: string; mimeType: string };
  operationName: string;
  documentId: string | null;
  text: string;
  scopes: ReadonlySet<Scope>;
  /** The variables a URI's query carries, as a tool's input schema states them. */
  variables: JsonSchema & { properties: Record<string, JsonSchema> };
  checkVariables: Validator<Record<string, unknown>>;
  /** The shape of each event's data. */
  eventSchema: JsonSchema;
}

/** Where an event source's URIs start: the name follows, then its variables as a query. */
export const EVENTS_URI = 'petstore://subscriptions/';

export interface ToolCatalogueOptions {
  schema: GraphQLSchema;
  /** The trusted-document manifest (id → text), or null: the default tools (default-documents.ts). */
  documents: ReadonlyMap<string, string> | null;
  scopesOf: (document: DocumentNode, operationName: string) => ReadonlySet<Scope>;
  /** Told of a document skipped (it does not validate) and of names made unique. */
  warn: (message: string, detail: Record<string, unknown>) => void;
}

/** The comment lines right above `offset` in `text` (`# …`), joined: a document's description of the operation below. */
function commentAbove(text: string, offset: number): string {
  const lines = text.slice(0, offset).split('\n');
  lines.pop();
  const said: string[] = [];
  for (let line = lines.pop(); line !== undefined && /^\s*#/.test(line); line = lines.pop())
    said.unshift(line.replace(/^\s*#\s?/, '').trim());
  return said.join(' ').trim();
}

/** A human title from an operation name: `list_pets` and `ListPets` → "List pets". */
function titleOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Every tool the server offers, built once at start: one per named query or mutation of each
 * trusted document (subscriptions answer more than once, which a tool call cannot), else of the
 * default documents. The tool is named after its operation; when two documents name one
 * operation alike (two versions of a client), the first keeps the name and the later gets its
 * document's id prefix after it.
 */
export function toolCatalogue({ schema, documents, scopesOf, warn }: ToolCatalogueOptions): {
  tools: ReadonlyMap<string, Tool>;
  events: ReadonlyMap<string, EventSource>;
} {
  const events = new Map<string, EventSource>();
  const sources: [string | null, string][] = documents ? [...documents] : [[null, defaultDocuments(schema)]];
  const found: { tool: Omit<Tool, 'listing'> & { listing: Omit<ToolListing, 'name'> }; name: string }[] = [];
  for (const [documentId, text] of sources) {
    let document: DocumentNode;
    try {
      document = parse(text);
    } catch (error) {
      warn('MCP: a trusted document does not parse; it is no tool', { documentId, error: (error as GraphQLError).message });
      continue;
    }
    const invalid = validate(schema, document);
    if (invalid.length > 0) {
      warn('MCP: a trusted document does not validate against the schema; it is no tool', { documentId, error: invalid[0]?.message });
      continue;
    }
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of document.definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION || !definition.name) continue;
      const operation: OperationDefinitionNode = definition;
      const operationName = definition.name.value;
      const inputSchema = variablesSchema(schema, operation);
      if (!inputSchema) continue;
      // A subscription answers more than once, which a tool call cannot: it is listened to instead. The first of a name keeps it.
      if (operation.operation === 'subscription') {
        if (events.has(operationName)) continue;
        const { $schema: _dialect, ...checked } = inputSchema;
        const names = Object.keys((checked.properties ?? {}) as object);
        const field = operation.selectionSet.selections.find((selection) => selection.kind === Kind.FIELD);
        const fallback = field?.kind === Kind.FIELD ? (schema.getSubscriptionType()?.getFields()[field.name.value]?.description ?? '') : '';
        events.set(operationName, {
          template: {
            uriTemplate: `${EVENTS_URI}${operationName}${names.length > 0 ? `{?${names.join(',')}}` : ''}`,
            name: operationName,
            title: titleOf(operationName),
            description: operation.description?.value || commentAbove(text, operation.loc?.start ?? 0) || fallback,
            mimeType: 'application/json',
          },
          operationName,
          documentId,
          text,
          scopes: scopesOf(document, operationName),
          variables: inputSchema as EventSource['variables'],
          checkVariables: createValidator<Record<string, unknown>>(checked),
          eventSchema: dataSchema(schema, operation, fragments),
        });
        continue;
      }
      const mutation = operation.operation === 'mutation';
      const rootFields = operation.selectionSet.selections.flatMap((selection) =>
        selection.kind === Kind.FIELD ? [selection.name.value] : [],
      );
      const root = mutation ? schema.getMutationType() : schema.getQueryType();
      const fallback = rootFields.map((name) => root?.getFields()[name]?.description ?? '').find(Boolean) ?? '';
      // The operation's own description (`"…" query Name`), else the comment above it, else its first field's.
      const description =
        operation.description?.value ||
        commentAbove(text, operation.loc?.start ?? 0) ||
        fallback ||
        `The ${operation.operation} ${operationName}.`;
      const annotations = annotationsOf(schema, operation, titleOf(operationName));
      const title = annotations.title;
      const { $schema, ...checked } = inputSchema;
      found.push({
        name: operationName,
        tool: {
          kind: 'operation',
          operationName,
          documentId,
          text,
          mutation,
          scopes: scopesOf(document, operationName),
          // The same schema the listing shows; its dialect is the validator's own.
          checkArguments: createValidator<Record<string, unknown>>(checked),
          listing: {
            title,
            description,
            inputSchema: { $schema, ...checked },
            outputSchema: dataSchema(schema, operation, fragments),
            annotations,
          },
        },
      });
    }
  }
  // Names stay stable as a manifest grows: the first document naming an operation keeps the name
  // (an agent's saved tool name goes on working); a later one (a client's next version) is named
  // with its document's id, and the server says so at start.
  const tools = new Map<string, Tool>();
  for (const { name, tool } of found) {
    const unique = tools.has(name) ? `${name}_${(tool.documentId ?? hash('sha256', tool.text)).slice(0, 8)}` : name;
    if (unique !== name)
      warn('MCP: another document names an operation alike; the first keeps the tool name, this one is named with its document id', {
        operation: name,
        tool: unique,
      });
    tools.set(unique, { ...tool, listing: { name: unique, ...tool.listing } });
  }
  return { tools, events };
}
