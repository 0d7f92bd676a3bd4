import { Kind, valueFromASTUntyped, visit } from 'graphql';
import { AppError } from '../../errors/index.ts';
import { fromAppError } from '../coded-error.ts';
import { asksForIncrements } from '../execution/incremental-delivery.ts';
import type { OperationCheck } from './operation-check.ts';

/**
 * `@stream(initialCount:)` is 0 or more, literal or in a variable: a negative one is the
 * request's error (400 VALIDATION_FAILED) on every path, not a fault of the executor. Only a
 * document that asks for increments is looked at.
 */
export const checkStreamCounts: OperationCheck = ({ document, variableValues }) => {
  if (!asksForIncrements(document)) return;
  let negative: unknown;
  visit(document, {
    Directive(node) {
      if (node.name.value !== 'stream') return;
      const argument = node.arguments?.find((given) => given.name.value === 'initialCount');
      if (!argument) return;
      const value: unknown =
        argument.value.kind === Kind.VARIABLE || argument.value.kind === Kind.INT
          ? valueFromASTUntyped(argument.value, variableValues ?? undefined)
          : 0;
      if (typeof value === 'number' && value < 0) negative = value;
    },
  });
  if (negative !== undefined)
    throw fromAppError(AppError.of('VALIDATION_FAILED', 'graphqlStreamInitialCount', { count: String(negative) }));
};
