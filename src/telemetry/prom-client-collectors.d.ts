// prom-client's default process collectors, one module each (its collectDefaultMetrics runs all of
// them, its GC observer included; process-metrics.ts runs all but that one).
declare module 'prom-client/lib/metrics/*.js' {
  import type { Registry } from 'prom-client';

  const collect: (register: Registry, config: { eventLoopMonitoringPrecision?: number }) => void;
  export default collect;
}
