import type { Scope } from '../services/access-tokens/scopes.ts';
import { createValidator } from '../services/validation/validator.ts';
import { JSON_SCHEMA_2020_12 } from './json-schema-of.ts';
import type { JsonSchema } from './json-schema-of.ts';
import type { Tool } from './tool-catalogue.ts';

/** An agent's document, as these tools take it: within the MCP body's bound, parsed under the GraphQL face's own bounds. */
const DOCUMENT: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 32_768,
  description: 'A GraphQL document (query or mutation; subscriptions are refused), as POST /graphql takes it.',
};
const OPERATION_NAME: JsonSchema = {
  type: ['string', 'null'],
  maxLength: 100,
  description: 'Which operation of the document to run, when it has several.',
};

function tool(
  name: 'validate_graphql' | 'execute_graphql',
  description: string,
  properties: Record<string, JsonSchema>,
  outputSchema: JsonSchema,
): Tool {
  const inputSchema = { type: 'object', properties, required: ['query'], additionalProperties: false };
  const execute = name === 'execute_graphql';
  const title = execute ? 'Execute GraphQL' : 'Validate GraphQL';
  return {
    kind: execute ? 'execute' : 'validate',
    operationName: '',
    documentId: null,
    text: '',
    // An idempotency key applies as to any write: what the document does is known once it is read.
    mutation: execute,
    // Listed to every caller: what a call needs is the document's own scopes, checked as it is admitted.
    scopes: new Set<Scope>(),
    checkArguments: createValidator<Record<string, unknown>>(inputSchema),
    listing: {
      name,
      title,
      description,
      inputSchema: { $schema: JSON_SCHEMA_2020_12, ...inputSchema },
      outputSchema: { $schema: JSON_SCHEMA_2020_12, ...outputSchema },
      annotations: execute
        ? { title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }
        : { title, readOnlyHint: true, openWorldHint: false },
    },
  };
}

/**
 * The tools that take an agent's own document (MCP_EXECUTE_TOOLS, off by default and never where
 * only trusted documents run): `validate_graphql` tells whether a document would run (its
 * bounds, syntax and validation against the schema, the GraphQL face's own, nothing run or
 * charged), and `execute_graphql` runs it through the one pipeline, under the caller's scopes,
 * rate limit, cost limit and quota, as POST /graphql would. Read the schema first: the
 * `petstore://schema.graphql` resource.
 */
export function graphqlTools(): Tool[] {
  return [
    tool(
      'validate_graphql',
      "Checks a GraphQL document against this API's schema and limits without running it: valid, or the errors POST /graphql would answer. Read the schema from the resource petstore://schema.graphql.",
      { query: DOCUMENT, operationName: OPERATION_NAME },
      {
        type: 'object',
        properties: {
          valid: { type: 'boolean' },
          errors: {
            type: 'array',
            items: {
              type: 'object',
              properties: { code: { type: 'string' }, message: { type: 'string' } },
              required: ['code', 'message'],
            },
          },
        },
        required: ['valid', 'errors'],
        additionalProperties: false,
      },
    ),
    tool(
      'execute_graphql',
      "Runs a GraphQL query or mutation against this API, as POST /graphql does, under your credential's scopes and limits; answers its data. Prefer the named tools where one fits. Validate first with validate_graphql.",
      {
        query: DOCUMENT,
        operationName: OPERATION_NAME,
        variables: { type: ['object', 'null'], description: "The operation's variables." },
      },
      { type: 'object', description: "The operation's data." },
    ),
  ];
}
