import { GraphQLError, Kind, getLocation, visit } from 'graphql';
import type { ASTNode, DocumentNode, SourceLocation } from 'graphql';

/**
 * graphql-jit raises its own error type, which keeps a field's location but not its AST
 * node. graphql-js errors carry the node, and everything downstream (masking, the coded
 * shape) builds on it: find the field each location points at and rebuild the error as
 * graphql-js would have raised it. Only failed answers pay for this.
 */
export function asGraphQLJsErrors(document: DocumentNode, errors: readonly GraphQLError[]): GraphQLError[] {
  const fieldsAt = fieldsByLocation(document);
  return errors.map((error) => {
    const nodes = (error.locations ?? []).map((at) => fieldsAt.get(key(at))).filter((node) => node !== undefined);
    return new GraphQLError(error.message, {
      nodes: nodes.length > 0 ? nodes : undefined,
      path: error.path,
      // Extensions come from the original error, as graphql-js's locatedError takes them.
      originalError: error.originalError,
    });
  });
}

function fieldsByLocation(document: DocumentNode): Map<string, ASTNode> {
  const found = new Map<string, ASTNode>();
  const source = document.loc?.source;
  if (!source) return found;
  visit(document, {
    [Kind.FIELD](node) {
      if (node.loc) found.set(key(getLocation(source, node.loc.start)), node);
    },
  });
  return found;
}

const key = (at: SourceLocation): string => `${at.line}:${at.column}`;
