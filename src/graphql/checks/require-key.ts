import { unauthorized } from '../../http/auth/bearer-token.ts';
import { writtenRootFields } from '../root-fields.ts';
import type { OperationCheck } from './operation-check.ts';

/**
 * Contract §5 on GraphQL: an operation that selects any Query, Mutation or Subscription field needs a
 * valid key, else HTTP 401 (with REST's words and WWW-Authenticate) and no data.
 * Introspection alone (`__schema`, `__type`, `__typename`) is open, so GraphiQL can show
 * the docs before a key is set.
 */
export const requireKey: OperationCheck = ({ contextValue, document, operationName }) => {
  if (contextValue.principal) return;
  if (writtenRootFields(document, operationName).every((name) => name.startsWith('__'))) return;
  const { exchange } = contextValue;
  throw exchange.authRefusal ?? unauthorized(exchange.headers.authorization);
};
