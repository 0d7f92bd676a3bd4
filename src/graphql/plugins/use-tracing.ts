import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { endingWhenDone, TRACER_NAME } from '../../services/traced.ts';
import type { Span } from '@opentelemetry/api';
import type { Plugin } from 'graphql-yoga';
import { serverSpanOf } from '../../telemetry/server-spans.ts';
import { operationOf } from '../operation-of.ts';
import type { ServerContext } from '../create-graphql.ts';

/** Runs `wrapped` with `span` active, and ends the span once it has finished. */
const inSpan = <T>(span: Span, wrapped: () => T): T =>
  endingWhenDone(span, () => context.with(trace.setSpan(context.active(), span), wrapped));

/**
 * GraphQL's phases as spans under the request's server span: parse, validate, execute (or
 * subscribe), the execute span active while resolvers run, so their service calls and
 * statements are its children. The server span takes the operation's name (`query ListPets`),
 * and either span is marked failed when the result has errors.
 */
export function useTracing<Context extends ServerContext>(): Plugin<Context> {
  const tracer = trace.getTracer(TRACER_NAME);
  const phase =
    (name: string) =>
    <T>(_payload: unknown, wrapped: () => T): T =>
      inSpan(tracer.startSpan(name), wrapped);
  return {
    instrumentation: {
      parse: phase('graphql.parse'),
      validate: phase('graphql.validate'),
      execute: phase('graphql.execute'),
      subscribe: phase('graphql.subscribe'),
    },
    onExecute({ args }) {
      const { type, name } = operationOf(args.document, args.operationName);
      const attributes = { 'graphql.operation.type': type, ...(name ? { 'graphql.operation.name': name } : {}) };
      const span = trace.getActiveSpan();
      span?.setAttributes(attributes);
      const server = serverSpanOf(args.contextValue.req.raw);
      server?.updateName(name ? `${type} ${name}` : type);
      server?.setAttributes(attributes);
      return {
        onExecuteDone({ result }) {
          if ('errors' in result && result.errors?.length) span?.setStatus({ code: SpanStatusCode.ERROR });
        },
      };
    },
  };
}
