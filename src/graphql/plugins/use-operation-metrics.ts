import { performance } from 'node:perf_hooks';
import type { ExecutionResult } from 'graphql';
import { handleStreamOrSingleExecutionResult, isAsyncIterable } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import type { Metrics } from '../../telemetry/metrics-types.ts';
import { countErrors } from '../count-errors.ts';
import { operationOf } from '../operation-of.ts';

/**
 * Each executed query and mutation by type, name and outcome, with its duration (a subscription
 * when it ends, its lifetime the duration); each error of
 * every result by its code, once (parse, validation, execution, a trusted-document refusal, and
 * each event of a subscription), under the same labels as REST's.
 */
export function useOperationMetrics<Context extends object>(metrics: Metrics): Plugin<Context> {
  // Results of the operation pipeline (both paths) are counted as they come out of it; a request
  // refused before it (an onParams hook threw) only reaches result processing. Results with
  // errors are remembered to tell the two apart; the usual result, without, costs nothing here.
  const counted = new WeakSet<ExecutionResult>();
  return {
    onExecute({ args }) {
      const began = performance.now();
      const { type, name } = operationOf(args.document, args.operationName);
      return {
        onExecuteDone: (payload) =>
          handleStreamOrSingleExecutionResult(payload, ({ result }) =>
            metrics.operation(type, name, Boolean(result.errors?.length), (performance.now() - began) / 1000),
          ),
      };
    },
    // A subscription is counted once it ends (its lifetime the duration, errored if any event
    // carried an error), on the transports Yoga carries: SSE and multipart (graphql-ws's are counted by the route's pipeline, run-graphql.ts).
    onSubscribe({ args }) {
      const began = performance.now();
      const { type, name } = operationOf(args.document, args.operationName);
      let errored = false;
      return {
        onSubscribeResult: () => ({
          onNext: ({ result }) => {
            if (result.errors?.length) errored = true;
            countErrors(metrics, result);
          },
          onEnd: () => metrics.operation(type, name, errored, (performance.now() - began) / 1000),
        }),
      };
    },
    onExecutionResult({ result }) {
      if (!result || isAsyncIterable(result) || !result.errors?.length) return;
      counted.add(result);
      countErrors(metrics, result);
    },
    onResultProcess({ result }) {
      if (isAsyncIterable(result)) return;
      for (const one of Array.isArray(result) ? result : [result]) if (one.errors?.length && !counted.has(one)) countErrors(metrics, one);
    },
  };
}
