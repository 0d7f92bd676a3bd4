import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { DocumentNode, ExecutionResult } from 'graphql';
import { endingWhenDone, TRACER_NAME } from '../telemetry/spans.ts';
import type { ServerContext } from './context.ts';
import { operationOf } from './operation-of.ts';

/** Runs `wrapped` in a span named `name`, active while it runs, ended once it has finished. */
function inPhaseSpan<T>(name: string, wrapped: () => T): T {
  const span = trace.getTracer(TRACER_NAME).startSpan(name);
  return endingWhenDone(span, () => context.with(trace.setSpan(context.active(), span), wrapped));
}

const untraced = <T>(_name: string, wrapped: () => T): T => wrapped();

/** How a server runs GraphQL's phases: each in a span where tracing is on, as it is where it is off. */
export function phaseSpans(tracing: boolean): <T>(name: string, wrapped: () => T) => T {
  return tracing ? inPhaseSpan : untraced;
}

/**
 * Names the request's server span after the operation (`query ListPets`) and gives it and the
 * active (execute) span the operation's attributes; the returned function marks the execute span
 * failed when the result has errors.
 */
export function traceOperation(
  { exchange }: ServerContext,
  document: DocumentNode,
  operationName: string | null | undefined,
): (result: ExecutionResult) => void {
  const { type, name } = operationOf(document, operationName);
  const attributes = { 'graphql.operation.type': type, ...(name ? { 'graphql.operation.name': name } : {}) };
  const span = trace.getActiveSpan();
  span?.setAttributes(attributes);
  const server = exchange.serverSpan;
  server?.updateName(name ? `${type} ${name}` : type);
  server?.setAttributes(attributes);
  return (result) => {
    if (result.errors?.length) span?.setStatus({ code: SpanStatusCode.ERROR });
  };
}
