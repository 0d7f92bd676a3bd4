import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { DocumentNode, ExecutionResult } from 'graphql';
import { endingWhenDone, TRACER_NAME } from '../../services/traced.ts';
import { isAsyncIterable } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import { serverSpanOf } from '../../telemetry/server-spans.ts';
import { operationOf } from '../operation-of.ts';
import type { ServerContext } from '../create-graphql.ts';

/** Runs `wrapped` in a span named `name`, active while it runs, ended once it has finished. */
export function inPhaseSpan<T>(name: string, wrapped: () => T): T {
  const span = trace.getTracer(TRACER_NAME).startSpan(name);
  return endingWhenDone(span, () => context.with(trace.setSpan(context.active(), span), wrapped));
}

/**
 * Names the request's server span after the operation (`query ListPets`) and gives it and the
 * active (execute) span the operation's attributes; the returned function marks the execute span
 * failed when the result has errors.
 */
export function traceOperation(
  { req }: ServerContext,
  document: DocumentNode,
  operationName: string | null | undefined,
): (result: ExecutionResult) => void {
  const { type, name } = operationOf(document, operationName);
  const attributes = { 'graphql.operation.type': type, ...(name ? { 'graphql.operation.name': name } : {}) };
  const span = trace.getActiveSpan();
  span?.setAttributes(attributes);
  const server = serverSpanOf(req.raw);
  server?.updateName(name ? `${type} ${name}` : type);
  server?.setAttributes(attributes);
  return (result) => {
    if (result.errors?.length) span?.setStatus({ code: SpanStatusCode.ERROR });
  };
}

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
