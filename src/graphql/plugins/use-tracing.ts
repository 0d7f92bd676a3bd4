import { isAsyncIterable } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import type { ServerContext } from '../create-graphql.ts';
import { inPhaseSpan, traceOperation } from '../operation-spans.ts';

/**
 * GraphQL's phases as spans under the request's server span: parse, validate, execute (or
 * subscribe), the execute span active while resolvers run, so their service calls and
 * statements are its children. The server span takes the operation's name (`query ListPets`),
 * and either span is marked failed when the result has errors.
 */
export function useTracing<Context extends ServerContext>(): Plugin<Context> {
  const phase =
    (name: string) =>
    <T>(_payload: unknown, wrapped: () => T): T =>
      inPhaseSpan(name, wrapped);
  return {
    instrumentation: {
      parse: phase('graphql.parse'),
      validate: phase('graphql.validate'),
      execute: phase('graphql.execute'),
      subscribe: phase('graphql.subscribe'),
    },
    onExecute({ args }) {
      const done = traceOperation(args.contextValue, args.document, args.operationName);
      return {
        onExecuteDone({ result }) {
          if (!isAsyncIterable(result)) done(result);
        },
      };
    },
  };
}
