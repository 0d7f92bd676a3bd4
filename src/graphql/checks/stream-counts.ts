import { Kind, valueFromASTUntyped, visit } from 'graphql';
import { AppError } from '../../errors/index.ts';
import { fromAppError } from '../coded-error.ts';
import { asksForIncrements } from '../execution/incremental-delivery.ts';
import type { OperationCheck } from './operation-check.ts';

/**
 * `@stream(initialCount:)` is 0 or more, literal or in a variable: a negative one, or null (the
 * argument's type is a nullable Int, so validation lets it through, but the executor cannot
 * count with it), is the request's error (400 VALIDATION_FAILED) on every path, not a fault of
 * the executor. A variable left out takes the argument's default. Only a document that asks for
 * increments is looked at.
 */
export const checkStreamCounts: OperationCheck = ({ document, variableValues }) => {
  if (!asksForIncrements(document)) return;
  let refused: { count: unknown } | undefined;
  visit(document, {
    Directive(node) {
      if (node.name.value !== 'stream') return;
      const argument = node.arguments?.find((given) => given.name.value === 'initialCount');
      if (!argument) return;
      const { value } = argument;
      if (value.kind === Kind.VARIABLE && !(variableValues && value.name.value in variableValues)) return;
      const count: unknown = valueFromASTUntyped(value, variableValues ?? undefined);
      if (count === null || (typeof count === 'number' && count < 0)) refused ??= { count };
    },
  });
  if (refused !== undefined)
    throw fromAppError(AppError.of('VALIDATION_FAILED', 'graphqlStreamInitialCount', { count: String(refused.count) }));
};
