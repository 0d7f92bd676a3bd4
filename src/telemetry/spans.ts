import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';

/** The instrumentation scope of every span this server makes. */
export const TRACER_NAME = 'petstore-gateway';

const tracer = trace.getTracer(TRACER_NAME);

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';

/**
 * Runs `run` and ends `span` once it has finished, also when it returns a promise (or any
 * thenable: Yoga's are not native), marking the span failed when it threw or rejected.
 */
export function endingWhenDone<R>(span: Span, run: () => R): R {
  const end = (failed: boolean) => {
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  try {
    const result = run();
    if (isThenable(result)) {
      return result.then(
        (value: unknown) => (end(false), value),
        (error: unknown) => {
          end(true);
          throw error;
        },
      ) as R;
    }
    end(false);
    return result;
  } catch (error) {
    end(true);
    throw error;
  }
}

/**
 * The services of one area, each call a span (`pets.createPet`) when it runs under a recording
 * span: a traced request or a delivery. Otherwise, tracing off or the trace not sampled, a call
 * costs one look at the active span. The span is active while the service runs, so its
 * statements are its children. Only `@opentelemetry/api` is used: no SDK, no exporter.
 */
export function traced<T extends Record<string, (...args: never[]) => unknown>>(area: string, services: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, service] of Object.entries(services)) {
    const spanName = `${area}.${name}`;
    wrapped[name] = (...args: never[]) =>
      trace.getActiveSpan()?.isRecording()
        ? tracer.startActiveSpan(spanName, (span) => endingWhenDone(span, () => service(...args)))
        : service(...args);
  }
  return wrapped as T;
}

/** The active span's W3C traceparent, or null while nothing is traced: what a message keeps of the request that queued it. */
export function currentTraceParent(): string | null {
  if (!trace.getActiveSpan()?.isRecording()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}
