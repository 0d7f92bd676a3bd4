import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { BREAK, GraphQLError, Kind, specifiedRules, visit } from 'graphql';
import type { DocumentNode, GraphQLSchema, ValidationRule } from 'graphql';
import { errorMessage } from '../../errors/index.ts';
import { documentFact } from '../document-entry.ts';

/** The directives of incremental delivery (the 2022-08-24 format Yoga's executor speaks). */
const INCREMENTAL = new Set(['defer', 'stream']);

// Yoga's defer-stream plugin is where @defer and @stream are defined, with the validation rules
// they need; its hooks are called once here, so this server's own validation and schema take
// them as Yoga would (the plugin's rules are not exported otherwise).
const plugin = useDeferStream();

/** The schema with @defer and @stream, as the plugin adds them. */
export function withIncrementalDelivery(schema: GraphQLSchema): GraphQLSchema {
  let extended = schema;
  plugin.onSchemaChange?.({ schema, replaceSchema: (replaced: GraphQLSchema) => void (extended = replaced) } as never);
  return extended;
}

/**
 * A literal `@stream(initialCount:)` below 0, refused where the document is validated, so on
 * every path (a JSON client's answer, which ignores @stream, too); one given in a variable is
 * checked with the variables (checks/stream-counts.ts).
 */
const StreamInitialCountRule: ValidationRule = (context) => ({
  Directive(node) {
    if (node.name.value !== 'stream') return;
    const count = node.arguments?.find((argument) => argument.name.value === 'initialCount')?.value;
    if (count?.kind === Kind.INT && Number(count.value) < 0) {
      context.reportError(
        new GraphQLError(errorMessage('VALIDATION_FAILED', 'graphqlStreamInitialCount', { count: count.value }), { nodes: count }),
      );
    }
  },
});

/** graphql-js's rules, with the plugin's overlapping-fields rule for theirs and its rules for @defer and @stream. */
export function incrementalDeliveryRules(): readonly ValidationRule[] {
  const params = { rules: [...specifiedRules] };
  const added: ValidationRule[] = [StreamInitialCountRule];
  plugin.onValidate?.({ params, addValidationRule: (rule: ValidationRule) => void added.push(rule) } as never);
  return [...params.rules, ...added];
}

/** Whether the document asks for any part of its answer later (@defer, @stream). Once, in the document's entry. */
export function asksForIncrements(document: DocumentNode): boolean {
  return documentFact(document, 'incremental', findIncrements);
}

function findIncrements(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (!INCREMENTAL.has(node.name.value)) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

const removeIncrements = (document: DocumentNode): DocumentNode =>
  visit(document, { Directive: (node) => (INCREMENTAL.has(node.name.value) ? null : undefined) });

/**
 * The document without @defer and @stream: the same answer, whole. What a client that takes only
 * JSON gets, as GraphQL over HTTP's incremental delivery allows. Once, in the document's entry.
 */
export function withoutIncrements(document: DocumentNode): DocumentNode {
  if (!asksForIncrements(document)) return document;
  return documentFact(document, 'plain', removeIncrements);
}
