import type { MaybePromise } from '../../http/maybe-promise.ts';
import type { ServerContext } from '../context.ts';
import { rootFields, writtenRootFields } from '../root-fields.ts';
import type { OperationCheck } from './operation-check.ts';

/**
 * sendMessage counts against the same per-key message quota as POST /messages: every
 * sendMessage the operation will run, aliases included, is charged before any runs, all or
 * none, so an operation over the quota sends nothing.
 */
export function chargeMessages(charge: (context: ServerContext, count: number) => MaybePromise<void>): OperationCheck {
  return ({ document, operationName, variableValues, contextValue }) => {
    // @skip and @include only take fields away: an operation that writes no sendMessage sends none.
    if (!writtenRootFields(document, operationName).includes('sendMessage')) return;
    const count = rootFields(document, operationName, variableValues ?? {}).filter((name) => name === 'sendMessage').length;
    if (count > 0) return charge(contextValue, count);
  };
}
