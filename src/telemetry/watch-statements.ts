import { performance } from 'node:perf_hooks';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { StatementObserver } from '../db/statement-observer.ts';
import type { Metrics } from './metrics-types.ts';
import { TRACER_NAME } from './spans.ts';
import { memo } from '../util/memo.ts';

/** SELECT, INSERT, BEGIN …: the statement's first word, once per statement text. */
export const operationOf = memo((sql: string): string => (/^\s*([A-Za-z]+)/.exec(sql)?.[1] ?? 'OTHER').toUpperCase());

/**
 * Times every statement for the metrics, and while a recording span is active (a traced request,
 * a delivery) gives it a child span with the statement's text: its parameters are never part of
 * it, since Kysely sends them apart.
 */
export function watchStatements(metrics: Metrics, dbSystem: string, tracing: boolean): StatementObserver {
  const tracer = trace.getTracer(TRACER_NAME);
  return {
    start(sql) {
      const began = performance.now();
      const operation = operationOf(sql);
      const span =
        tracing && trace.getActiveSpan()?.isRecording()
          ? tracer.startSpan(`${operation} ${dbSystem}`, {
              kind: SpanKind.CLIENT,
              attributes: { 'db.system.name': dbSystem, 'db.operation.name': operation, 'db.query.text': sql },
            })
          : undefined;
      return (failed) => {
        metrics.statement(operation, failed, (performance.now() - began) / 1000);
        if (!span) return;
        if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      };
    },
    lockWait: (seconds) => metrics.lockWait(seconds),
  };
}
