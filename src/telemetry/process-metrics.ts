import { GCProfiler } from 'node:v8';
import type { Registry } from 'prom-client';
import eventLoopLag from 'prom-client/lib/metrics/eventLoopLag.js';
import heapSizeAndUsed from 'prom-client/lib/metrics/heapSizeAndUsed.js';
import heapSpacesSizeAndUsed from 'prom-client/lib/metrics/heapSpacesSizeAndUsed.js';
import osMemoryHeap from 'prom-client/lib/metrics/osMemoryHeap.js';
import processCpuTotal from 'prom-client/lib/metrics/processCpuTotal.js';
import processHandles from 'prom-client/lib/metrics/processHandles.js';
import processMaxFileDescriptors from 'prom-client/lib/metrics/processMaxFileDescriptors.js';
import processOpenFileDescriptors from 'prom-client/lib/metrics/processOpenFileDescriptors.js';
import processRequests from 'prom-client/lib/metrics/processRequests.js';
import processResources from 'prom-client/lib/metrics/processResources.js';
import processStartTime from 'prom-client/lib/metrics/processStartTime.js';
import version from 'prom-client/lib/metrics/version.js';
import { histogram, registerIn } from './metric-cells.ts';
import { memo } from '../util/memo.ts';

/** How often the GC profile is read even when nobody scrapes: it holds one record per collection. */
const GC_FOLD_MS = 10_000;
/** prom-client's buckets for nodejs_gc_duration_seconds. */
const GC_BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5];
const KINDS: Record<string, string> = {
  Scavenge: 'minor',
  MinorMarkSweep: 'minor',
  MinorMarkCompact: 'minor',
  MarkSweepCompact: 'major',
  IncrementalMarking: 'incremental',
  ProcessWeakCallbacks: 'weakcb',
};

/**
 * prom-client's process and Node metrics (CPU, memory, file descriptors, handles, heap spaces,
 * event-loop delay, version), all but its GC collector, which runs a JS callback for every
 * collection: on a server allocating fast that nearly doubled the cost of each allocation
 * (measured, docs/observability.md). With `gc`, `nodejs_gc_duration_seconds` comes from V8's GC
 * profiler instead, which records collections in C++, read every 10 s and at every scrape; it
 * still costs about 2.5% CPU on a GraphQL page of pets, so it is opt-in (METRICS_GC).
 */
export function processMetrics(registry: Registry, { gc }: { gc: boolean }): { close(): void } {
  for (const collect of [
    processCpuTotal,
    processStartTime,
    osMemoryHeap,
    processOpenFileDescriptors,
    processMaxFileDescriptors,
    eventLoopLag,
    processResources,
    processHandles,
    processRequests,
    heapSizeAndUsed,
    heapSpacesSizeAndUsed,
    version,
  ]) {
    collect(registry, { eventLoopMonitoringPrecision: 10 });
  }
  return gc ? gcDurations(registry) : { close: () => undefined };
}

function gcDurations(registry: Registry): { close(): void } {
  const durations = histogram(
    'nodejs_gc_duration_seconds',
    'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    GC_BUCKETS,
  );
  const cellOf = memo((kind: string) => durations.cell({ kind }));
  let profiler = new GCProfiler();
  profiler.start();
  const fold = () => {
    const { statistics } = profiler.stop();
    profiler = new GCProfiler();
    profiler.start();
    for (const { gcType, cost } of statistics) {
      cellOf(KINDS[gcType] ?? 'other').observe(cost / 1e6);
    }
  };
  const timer = setInterval(fold, GC_FOLD_MS).unref();
  registerIn(registry, { ...durations, get: async () => (fold(), durations.get()) });
  return {
    close() {
      clearInterval(timer);
      profiler.stop();
    },
  };
}
