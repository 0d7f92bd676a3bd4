import { NoSchemaIntrospectionCustomRule, validate } from 'graphql';
import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import { codedError } from '../coded-error.ts';
import { documentFact } from '../document-entry.ts';
import { requestErrorWords } from '../mask-error.ts';
import { incrementalDeliveryRules } from './incremental-delivery.ts';

export interface DocumentValidatorOptions {
  /** Introspection off: a validation rule, so it holds for every way a document reaches execution. */
  introspection: boolean;
  /** Production hides "Did you mean …?" hints, which leak the schema when introspection is off. */
  production: boolean;
}

/**
 * graphql-js's validation of a document against the schema (with @defer's and @stream's rules),
 * once, kept in the document's entry, its errors coded where they are made: VALIDATION_FAILED,
 * 400, a request error. An empty list: valid.
 */
export function documentValidator(
  schema: GraphQLSchema,
  { introspection, production }: DocumentValidatorOptions,
): (document: DocumentNode) => readonly GraphQLError[] {
  const rules = introspection ? incrementalDeliveryRules() : [...incrementalDeliveryRules(), NoSchemaIntrospectionCustomRule];
  const coded = (error: GraphQLError) =>
    codedError(requestErrorWords(error.message, production), 'VALIDATION_FAILED', 400, {
      from: error,
      requestLevel: true,
      documentError: true,
    });
  const validated = (document: DocumentNode) => validate(schema, document, rules).map(coded);
  return (document) => documentFact(document, 'validation', validated, schema);
}
