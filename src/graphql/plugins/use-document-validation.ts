import type { DocumentNode, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Yoga validates with `validate` (execution/document-validator.ts): the same rules, the same
 * coded errors and the same remembered result as the GraphQL route's own path.
 */
export function useDocumentValidation<Context extends object>(
  validate: (document: DocumentNode) => readonly GraphQLError[],
): Plugin<Context> {
  return {
    onValidate({ params, setResult }) {
      setResult([...validate(params.documentAST)]);
    },
  };
}
