import { normalizedExecutor } from '@graphql-tools/executor';
import { getOperationAST, getVariableValues, Kind, visit } from 'graphql';
import type { DocumentNode, ExecutionArgs, ExecutionResult, GraphQLSchema, ObjectFieldNode, OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { MaybePromise } from '../../http/maybe-promise.ts';
import { operationFact } from '../document-entry.ts';

/** Runs one operation of one document: args.document and args.operationName are the ones it was made for. */
export type Executor = (args: ExecutionArgs) => MaybePromise<ExecutionResult | AsyncIterable<ExecutionResult>>;

/** The engine Yoga runs (graphql-tools' executor): what every answer JIT does not give is given by. */
export const stockExecutor: Executor = (args) => normalizedExecutor(args);

/**
 * The executor of each operation, made once and kept in the document's entry: with `jit`, a query or mutation compiled by
 * graphql-jit, answering what the stock executor would, byte for byte. Every answer that is not a
 * plain run of a valid operation (no single operation to run, variables that do not coerce, a
 * document JIT cannot compile) is left to the stock executor, so its errors and statuses are the
 * stock ones.
 */
export function operationExecutors(schema: GraphQLSchema, { jit }: { jit: boolean }) {
  const make = (document: DocumentNode, operationName: string | null | undefined): Executor => {
    const operation = getOperationAST(document, operationName);
    if (!jit || !operation || operation.operation === 'subscription') return stockExecutor;
    const compiled = compileQuery(schema, document, operationName ?? undefined);
    if (!isCompiledQuery(compiled)) return stockExecutor;
    const definitions = operation.variableDefinitions ?? [];
    const asFields = fieldVariables(document, operation);
    // Not async: an answer JIT gives at once (every field's value at hand) makes no promise here.
    return (args) => {
      const variables = args.variableValues ?? {};
      // Only where there are variables to coerce: a failure is answered in the stock executor's words.
      if (definitions.length > 0 && getVariableValues(schema, definitions, variables, { maxErrors: 50 }).errors) return stockExecutor(args);
      for (const name of asFields) if (!(name in variables)) return stockExecutor(args);
      const ran = compiled.query(args.rootValue, args.contextValue, variables);
      return ran instanceof Promise ? ran.then(inGraphQLJsShape) : inGraphQLJsShape(ran);
    };
  };
  return (document: DocumentNode, operationName: string | null | undefined): Executor =>
    operationFact(document, operationName, 'executor', make, schema);
}

/**
 * The variables without a default that stand for an input object's field (`{ status: $status }`).
 * One left out of a request leaves the field out (GraphQL's input coercion), but graphql-jit
 * 0.8 passes it as null, which a service reads as a value given: such a request runs on the
 * stock executor. Worked out once per document and operation, linear in it.
 */
function fieldVariables(document: DocumentNode, operation: OperationDefinitionNode): ReadonlySet<string> {
  const undefaulted = new Set(
    (operation.variableDefinitions ?? [])
      .filter((definition) => !definition.defaultValue)
      .map((definition) => definition.variable.name.value),
  );
  const names = new Set<string>();
  const collect = {
    ObjectField(field: ObjectFieldNode) {
      if (field.value.kind === Kind.VARIABLE && undefaulted.has(field.value.name.value)) names.add(field.value.name.value);
    },
  };
  // The operation and the fragments it may spread; the document's other operations are not this one's.
  visit(operation, collect);
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) visit(definition, collect);
  return names;
}

/**
 * graphql-js answers `{ errors, data }` in that order, `{ data }` when nothing failed. graphql-jit's
 * errors go on as they are: the mask builds each one's public shape from its locations and path,
 * once (mask-error.ts).
 */
function inGraphQLJsShape(result: ExecutionResult): ExecutionResult {
  if (!result.errors || result.errors.length === 0) return { data: result.data };
  return { errors: result.errors, data: result.data };
}
