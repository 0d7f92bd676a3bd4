import { getVariableValues } from '@graphql-tools/executor';
import { getOperationAST } from 'graphql';
import type { DocumentNode, ExecutionArgs, ExecutionResult, GraphQLError, OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { asGraphQLJsErrors } from './jit-errors.ts';
import { whenReady } from '../../http/maybe-promise.ts';
import type { MaybePromise } from '../../http/maybe-promise.ts';

interface Compiled {
  operation: OperationDefinitionNode;
  query: CompiledQuery['query'];
}

/**
 * Queries and mutations run as graphql-jit compiled functions, answering what graphql-js
 * would, byte for byte. Every answer that is not a plain run of a valid operation (no
 * single operation to run, variables that do not coerce, a document JIT cannot compile)
 * is left to the stock executor, so its errors and statuses are Yoga's own. JIT's errors
 * are rebuilt as graphql-js errors, so masking sees what it always saw.
 */
export function useSafeJit<Context extends object>(): Plugin<Context> {
  // Yoga's parse cache hands back the same document for the same text, so this keys by query text in effect.
  const compiledByDocument = new WeakMap<DocumentNode, Map<string, Compiled | null>>();

  function compiledFor(args: ExecutionArgs): Compiled | null {
    let byName = compiledByDocument.get(args.document);
    if (!byName) compiledByDocument.set(args.document, (byName = new Map()));
    const name = args.operationName ?? '';
    if (byName.has(name)) return byName.get(name) ?? null;
    const operation = getOperationAST(args.document, args.operationName);
    let compiled: Compiled | null = null;
    if (operation && operation.operation !== 'subscription') {
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
      if (isCompiledQuery(result)) compiled = { operation, query: result.query.bind(result) };
    }
    byName.set(name, compiled);
    return compiled;
  }

  return {
    onExecute({ executeFn, setExecuteFn }) {
      const stock = executeFn as (args: ExecutionArgs) => MaybePromise<ExecutionResult>;
      setExecuteFn(((args: ExecutionArgs) => {
        const compiled = compiledFor(args);
        if (!compiled) return stock(args);
        const variables = args.variableValues ?? {};
        const coerced = getVariableValues(args.schema, compiled.operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
        if ('errors' in coerced && coerced.errors) return stock(args);
        const result = compiled.query(args.rootValue, args.contextValue, variables);
        return whenReady(result, (done) => inGraphQLJsShape(args.document, done));
      }) as typeof executeFn);
    },
  };
}

/** graphql-js answers `{ errors, data }` in that order, `{ data }` when nothing failed. */
function inGraphQLJsShape(document: DocumentNode, result: ExecutionResult): ExecutionResult {
  if (!result.errors || result.errors.length === 0) return { data: result.data };
  return { errors: asGraphQLJsErrors(document, result.errors as readonly GraphQLError[]), data: result.data };
}
